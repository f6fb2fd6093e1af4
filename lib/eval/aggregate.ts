import { mcnemarExact, type McNemarResult } from "../stats/mcnemar";
import { wilson } from "../stats/wilson";
import type { CutEvaluation } from "./evaluate-cut";

/**
 * Per-policy figures of a replay evaluation — one function for the CLI (`tracefold eval --json`)
 * and the studio, so both always show the same numbers for the same stored results.
 *
 * - `prunePct`: mean over cuts of seed 000's pruning rate 1 − |C′|/|C| (each cut weighs the same,
 *   like the no-impact rate beside it); `tokenPrunePct` weighs cuts by their prefix tokens.
 * - `noImpactPct` = 100 · noImpact / n with the Wilson 95 % interval `ci95` (percent).
 * - `failures`: for each Table 7 category, the number of impacted cuts with at least one missing
 *   dependency of that category (a cut can count under several categories).
 */
export interface EvaluationRecord {
  policy: string;
  sessionId: string;
  cut: number;
  prefixTokens: number;
  tokensAfter: number;
  pruneRate: number;
  noImpact: boolean;
  /** Missing dependencies per failure category at this cut. */
  missingByCategory: Readonly<Record<string, number>>;
}

export interface PolicyAggregate {
  id: string;
  cuts: number;
  prunePct: number;
  tokenPrunePct: number;
  noImpactPct: number;
  noImpact: number;
  n: number;
  ci95: [number, number];
  failures: Record<string, number>;
}

/**
 * The failure bucket of an impacted cut whose verdict carries no dependency evidence (an LLM
 * judge names a culprit object, not a Table 7 category): without it such cuts would count under
 * no category at all.
 */
export const UNCATEGORIZED = "uncategorized";

/** The stored shape of one evaluation, reduced to what aggregation needs. */
export function toRecord(evaluation: CutEvaluation): EvaluationRecord {
  return {
    policy: evaluation.policy,
    sessionId: evaluation.sessionId,
    cut: evaluation.cut,
    prefixTokens: evaluation.prefixTokens,
    tokensAfter: evaluation.tokensAfter,
    pruneRate: evaluation.pruneRate,
    noImpact: evaluation.noImpact,
    missingByCategory: evaluation.verdict.evidence?.counts.byCategory ?? (evaluation.noImpact ? {} : { [UNCATEGORIZED]: 1 }),
  };
}

/** Aggregates per policy, in the order `policyOrder` gives (then any other policy, by id). */
export function aggregatePolicies(records: Iterable<EvaluationRecord>, policyOrder: readonly string[] = []): PolicyAggregate[] {
  const byPolicy = new Map<string, { cuts: number; prune: number; before: number; after: number; noImpact: number; failures: Record<string, number> }>();
  for (const id of policyOrder) byPolicy.set(id, { cuts: 0, prune: 0, before: 0, after: 0, noImpact: 0, failures: {} });
  for (const record of records) {
    let row = byPolicy.get(record.policy);
    if (!row) byPolicy.set(record.policy, (row = { cuts: 0, prune: 0, before: 0, after: 0, noImpact: 0, failures: {} }));
    row.cuts++;
    row.prune += record.pruneRate;
    row.before += record.prefixTokens;
    row.after += record.tokensAfter;
    if (record.noImpact) row.noImpact++;
    else for (const [category, count] of Object.entries(record.missingByCategory)) if (count > 0) row.failures[category] = (row.failures[category] ?? 0) + 1;
  }
  const known = new Set(policyOrder);
  const ids = [...policyOrder, ...[...byPolicy.keys()].filter((id) => !known.has(id)).sort()];
  return ids.map((id) => {
    const row = byPolicy.get(id)!;
    const interval = wilson(row.noImpact, row.cuts);
    return {
      id,
      cuts: row.cuts,
      prunePct: row.cuts === 0 ? 0 : round((100 * row.prune) / row.cuts),
      tokenPrunePct: row.before === 0 ? 0 : round(100 * (1 - row.after / row.before)),
      noImpactPct: row.cuts === 0 ? 0 : round((100 * row.noImpact) / row.cuts),
      noImpact: row.noImpact,
      n: row.cuts,
      ci95: [round(100 * interval.low), round(100 * interval.high)],
      failures: row.failures,
    };
  });
}

/**
 * McNemar's exact test of policy `a` against policy `b` on the cuts both were judged at
 * (matched by session and cut): b = only `a` had no impact, c = only `b` had no impact.
 */
export function comparePolicies(records: Iterable<EvaluationRecord>, a: string, b: string): McNemarResult & { pairs: number } {
  const outcomes = new Map<string, { a?: boolean; b?: boolean }>();
  for (const record of records) {
    if (record.policy !== a && record.policy !== b) continue;
    const key = `${record.sessionId}#${record.cut}`;
    const entry = outcomes.get(key) ?? {};
    entry[record.policy === a ? "a" : "b"] = record.noImpact;
    outcomes.set(key, entry);
  }
  let both = 0, onlyA = 0, onlyB = 0, neither = 0;
  for (const { a: x, b: y } of outcomes.values()) {
    if (x === undefined || y === undefined) continue;
    if (x && y) both++;
    else if (x) onlyA++;
    else if (y) onlyB++;
    else neither++;
  }
  return { ...mcnemarExact(onlyA, onlyB, { both, neither }), pairs: both + onlyA + onlyB + neither };
}

/** Two decimals: enough for a percentage, stable in JSON. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
