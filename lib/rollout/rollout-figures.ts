import { billedCost, type Prices } from "./billed-cost";
import { plannerRoundCost, type PlannerFigures } from "./planner-rounds";
import type { RolloutSessionResult } from "./rollout-session";

/**
 * The figures of one policy over one session or pooled over many — the rollout's JSON contract
 * (docs/rollout.md, `tracefold rollout --json`). Calls weigh equally; tokens are summed; a cost is summed
 * over the sessions that have prices only (`unpricedSessions` says how many had none).
 */
export interface RolloutFigures {
  id: string;
  calls: number;
  inputTokens: { without: number; with: number };
  /** 100 × (1 − with / without) of the summed prompt tokens, two decimals; null without calls. */
  reductionPct: number | null;
  /** Share of the prompt tokens with the policy that were cache reads (and the same without it). */
  cachedInputPct: number | null;
  cachedInputPctWithout: number | null;
  /**
   * USD of input (cache reads and writes at their prices) and output; null when no session was
   * priced. `with` is the policy's whole bill: its calls plus its planner's rounds (`planner.cost`
   * of the priced sessions), so an LLM planner's overhead is paid out of the saving.
   */
  cost: { without: number; with: number } | null;
  unpricedSessions: number;
  compactions: number;
  /** Calls whose prompt with the policy exceeded the window: a real harness would have failed them. */
  overflowCalls: number;
  /** Of `compactions`, those the harness's hard limit asked for (the prompt was over the window); 0 without it. */
  hardLimitCommits: number;
  restores: number;
  /** Payload and framing tokens the restores put back into prompts. */
  restoredTokens: number;
  /** Calls whose step needed a value the committed view had lost. */
  lostSteps: number;
  lostStepsPer100: number | null;
  lostByCategory: Record<string, number>;
  /** Dependencies lost in each compaction round (1 = the session's first commit). */
  drift: { round: number; lost: number }[];
  /** Whether the dependency judge ran (false: lost steps and restores were not measured). */
  judged: boolean;
  /**
   * The side-channel planner's model calls (self-gc with planner=llm): rounds, their tokens and
   * cost — each round at the endpoint's reported cost, else at `plannerPrices`. All zero for a
   * policy without an LLM planner.
   */
  planner: PlannerFigures;
}

/** What one session's walk adds up to, with its prices (undefined: unpriced). */
export interface PricedRollout {
  result: RolloutSessionResult;
  prices?: Prices;
  /** Prices of the planner's model for rounds whose endpoint reported no cost (undefined: such rounds are unpriced). */
  plannerPrices?: Prices;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function rolloutFigures(id: string, walks: readonly PricedRollout[]): RolloutFigures {
  let overflow = 0,
    calls = 0,
    without = 0,
    withPolicy = 0,
    cachedWith = 0,
    cachedWithout = 0,
    compactions = 0,
    hardLimitCommits = 0,
    restoredTokens = 0,
    restores = 0,
    lostSteps = 0,
    unpriced = 0,
    priced = 0;
  let costWithout = 0,
    costWith = 0;
  const lostByCategory: Record<string, number> = {};
  const drift = new Map<number, number>();
  const planner = { rounds: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cost: 0, unpricedRounds: 0 };
  for (const { result, prices, plannerPrices } of walks) {
    if (prices) priced++;
    else unpriced++;
    for (const c of result.calls) {
      calls++;
      without += c.without.input;
      withPolicy += c.with.input;
      cachedWith += c.with.cached;
      cachedWithout += c.without.cached;
      if (c.with.input > result.window) overflow++;
      if (prices) {
        costWithout += billedCost({ calls: 1, input: c.without.input, cached: c.without.cached, write: c.without.write, output: c.output }, prices);
        costWith += billedCost({ calls: 1, input: c.with.input, cached: c.with.cached, write: c.with.write, output: c.output }, prices);
      }
    }
    for (const round of result.plannerRounds ?? []) {
      planner.rounds++;
      planner.inputTokens += round.inputTokens;
      planner.outputTokens += round.outputTokens;
      planner.cachedInputTokens += round.cachedInputTokens;
      const usd = plannerRoundCost(round, plannerPrices);
      if (usd === undefined) planner.unpricedRounds++;
      else {
        planner.cost += usd;
        // The policy's bill counts its planner in the sessions whose calls are billed.
        if (prices) costWith += usd;
      }
    }
    compactions += result.compactions.length;
    hardLimitCommits += result.hardLimitCommits ?? 0; // walks stored before the hard limit have none
    restores += result.restores.length;
    for (const r of result.restores) restoredTokens += r.cost;
    lostSteps += result.lostSteps.length;
    for (const step of result.lostSteps) {
      for (const lost of step.lost) {
        lostByCategory[lost.category] = (lostByCategory[lost.category] ?? 0) + 1;
        drift.set(lost.round, (drift.get(lost.round) ?? 0) + 1);
      }
    }
    for (const round of result.rounds) if (!drift.has(round.round)) drift.set(round.round, 0);
  }
  const judged = walks.length > 0 && walks.every((w) => w.result.judged);
  return {
    id,
    calls,
    inputTokens: { without, with: withPolicy },
    reductionPct: calls && without > 0 ? round2(100 * (1 - withPolicy / without)) : null,
    cachedInputPct: withPolicy > 0 ? round2((100 * cachedWith) / withPolicy) : null,
    cachedInputPctWithout: without > 0 ? round2((100 * cachedWithout) / without) : null,
    cost: priced > 0 ? { without: round6(costWithout), with: round6(costWith) } : null,
    unpricedSessions: unpriced,
    compactions,
    overflowCalls: overflow,
    hardLimitCommits,
    restores,
    restoredTokens,
    lostSteps,
    lostStepsPer100: calls ? round2((100 * lostSteps) / calls) : null,
    lostByCategory: Object.fromEntries(Object.entries(lostByCategory).sort(([a], [b]) => a.localeCompare(b))),
    drift: [...drift].sort((a, b) => a[0] - b[0]).map(([round, lost]) => ({ round, lost })),
    judged,
    planner: { ...planner, cost: planner.rounds > 0 && planner.unpricedRounds === planner.rounds ? null : round6(planner.cost) },
  };
}
