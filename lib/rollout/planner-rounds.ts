import type { PolicyResult } from "../compaction/policies/types";
import { billedCost, type Prices } from "./billed-cost";
import { pricesFor, type PriceChoice } from "./model-prices";

/**
 * One round of a policy's side-channel planner that called a model (self-gc with planner=llm): the
 * tokens the endpoint reported for it, repair attempts included. Recorded whenever the policy ran
 * and its result reports planner usage, whether the plan was committed, left pending or rejected —
 * the call was paid for either way. A rule-based planner reports no usage, so it has no rounds.
 */
export interface PlannerRound {
  /** Index (in the walk's calls) of the call the policy ran before. */
  call: number;
  /** Original index of that call's assistant message. */
  message: number;
  /** The model that answered (as the endpoint named it), when reported. */
  model?: string;
  /** Prompt tokens, cached ones included (0 when the endpoint reported none). */
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** USD the endpoint reported for the round (its configured prices); absent: none reported. */
  costUsd?: number;
  /** Whether this round's plan was committed (false: pending, rejected or no smaller view). */
  committed: boolean;
}

/** Planner usage as self-gc's LLM planner reports it in `details.planner.usage`. */
interface ReportedUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  costUsd?: number;
}

const count = (x: unknown) => (typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : undefined);

/**
 * The planner round a policy result reports, or undefined when it reports no planner usage (every
 * policy but self-gc with planner=llm). Reads `details.planner.usage` and `details.planner.model`.
 */
export function plannerRoundOf(result: PolicyResult, at: { call: number; message: number; committed: boolean }): PlannerRound | undefined {
  const planner = (result.details as { planner?: { model?: unknown; usage?: ReportedUsage } } | undefined)?.planner;
  const usage = planner?.usage;
  if (!usage || typeof usage !== "object") return undefined;
  const costUsd = count(usage.costUsd);
  return {
    call: at.call,
    message: at.message,
    ...(typeof planner.model === "string" ? { model: planner.model } : {}),
    inputTokens: count(usage.inputTokens) ?? 0,
    outputTokens: count(usage.outputTokens) ?? 0,
    cachedInputTokens: count(usage.cachedInputTokens) ?? 0,
    ...(costUsd !== undefined ? { costUsd } : {}),
    committed: at.committed,
  };
}

/**
 * What a round cost: the endpoint's reported `costUsd` when present (it knows its own prices), else
 * its tokens at `prices` (cached input at the cache-read price, the rest at the input price, no
 * cache write), else undefined (unpriced).
 */
export function plannerRoundCost(round: PlannerRound, prices: Prices | undefined): number | undefined {
  if (round.costUsd !== undefined) return round.costUsd;
  if (!prices) return undefined;
  const cached = Math.min(round.cachedInputTokens, round.inputTokens);
  return billedCost({ calls: 1, input: round.inputTokens, cached, write: 0, output: round.outputTokens }, prices);
}

/** The planner figures of a rollout: all zero (and cost 0) without planner rounds. */
export interface PlannerFigures {
  rounds: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** USD over the priced rounds (reported cost, else the price table); null when rounds exist and none is priced. */
  cost: number | null;
  /** Rounds with no reported cost whose model the price table does not know (left out of `cost`). */
  unpricedRounds: number;
}

export const NO_PLANNER: PlannerFigures = { rounds: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cost: 0, unpricedRounds: 0 };

/**
 * The prices a walk's planner rounds are billed at when the endpoint reported no cost: the planner
 * model's entry under the rollout's price choice (a fixed price prices every round), or undefined —
 * never the session's own model's rates, which are someone else's. Undefined without rounds.
 */
export function plannerPricesFor(rounds: readonly PlannerRound[], choice: PriceChoice): Prices | undefined {
  if (rounds.length === 0) return undefined;
  return pricesFor(rounds.find((r) => r.model !== undefined)?.model, choice)?.prices;
}
