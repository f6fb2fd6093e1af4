import { billedCost, type Prices } from "./billed-cost";
import type { RolloutSessionResult } from "./rollout-session";

/**
 * The figures of one policy over one session or pooled over many — the rollout's JSON contract
 * (README, `tracefold rollout --json`). Calls weigh equally; tokens are summed; a cost is summed
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
  /** USD of input (cache reads and writes at their prices) and output; null when no session was priced. */
  cost: { without: number; with: number } | null;
  unpricedSessions: number;
  compactions: number;
  /** Calls whose prompt with the policy exceeded the window: a real harness would have failed them. */
  overflowCalls: number;
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
}

/** What one session's walk adds up to, with its prices (undefined: unpriced). */
export interface PricedRollout {
  result: RolloutSessionResult;
  prices?: Prices;
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
    restoredTokens = 0,
    restores = 0,
    lostSteps = 0,
    unpriced = 0,
    priced = 0;
  let costWithout = 0,
    costWith = 0;
  const lostByCategory: Record<string, number> = {};
  const drift = new Map<number, number>();
  for (const { result, prices } of walks) {
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
    compactions += result.compactions.length;
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
    restores,
    restoredTokens,
    lostSteps,
    lostStepsPer100: calls ? round2((100 * lostSteps) / calls) : null,
    lostByCategory: Object.fromEntries(Object.entries(lostByCategory).sort(([a], [b]) => a.localeCompare(b))),
    drift: [...drift].sort((a, b) => a[0] - b[0]).map(([round, lost]) => ({ round, lost })),
    judged,
  };
}
