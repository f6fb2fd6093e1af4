import { mcnemarExact, type McNemarResult } from "../../stats/mcnemar";
import { wilson } from "../../stats/wilson";
import { budgetKey } from "../cuts/budget";
import type { CutEvaluation } from "../runner/evaluate-cut";
import type { StatusCounts } from "../judge/verdict-schema";

/**
 * Per-policy figures of a replay evaluation — one function for the CLI (`tracefold eval --json`)
 * and the studio, so both always show the same numbers for the same stored results.
 *
 * - `prunePct`: mean over cuts of seed 000's pruning rate 1 − |C′|/|C| (each cut weighs the same,
 *   like the no-impact rate beside it); `tokenPrunePct` weighs cuts by their prefix tokens.
 * - `netPrunePct`: the same mean after the future restores what it needs (each sidecar once, its
 *   tokens plus one call): 1 − (|C′| + restores) / |C|; null when the judge names no restores.
 * - `noImpactPct` (headline), `visibleNoImpactPct` (every dependency visible) and
 *   `restorableNoImpactPct` (none lost), each 100 · k / n with its Wilson 95 % interval; the two
 *   readings are null when the judge does not give them (an LLM judge).
 * - `restoresPerCut`: mean number of sidecars the future restores per cut (null as above).
 * - `failures`: for each Table 7 category, the number of impacted cuts with at least one lost
 *   dependency of that category (a cut can count under several categories).
 * Records of one policy should come from one budget (own settings, one sweep level, or matched):
 * split them with `recordsAt` first.
 */
export interface EvaluationRecord {
  policy: string;
  sessionId: string;
  cut: number;
  prefixTokens: number;
  tokensAfter: number;
  pruneRate: number;
  noImpact: boolean;
  /** Lost dependencies per failure category at this cut. */
  missingByCategory: Readonly<Record<string, number>>;
  /** `budgetKey` of the unit's matched budget; absent at the policy's own settings. */
  budget?: string;
  netPruneRate?: number;
  restores?: number;
  visibleNoImpact?: boolean;
  restorableNoImpact?: boolean;
  /** Visible / restorable / lost per dependency kind (judge-sensitivity variants). */
  byKind?: Readonly<Record<string, StatusCounts>>;
}

export interface RateWithInterval {
  pct: number;
  ci95: [number, number];
}

export interface PolicyAggregate {
  id: string;
  cuts: number;
  prunePct: number;
  tokenPrunePct: number;
  netPrunePct: number | null;
  noImpactPct: number;
  noImpact: number;
  n: number;
  ci95: [number, number];
  visibleNoImpactPct: number | null;
  visibleCi95: [number, number] | null;
  restorableNoImpactPct: number | null;
  restorableCi95: [number, number] | null;
  restoresPerCut: number | null;
  failures: Record<string, number>;
}

/** The figures a trade-off curve point and a matched comparison report for one policy (their JSON contract shares them). */
export type PolicyFigures = Pick<PolicyAggregate, "prunePct" | "netPrunePct" | "noImpactPct" | "visibleNoImpactPct" | "restorableNoImpactPct" | "n" | "ci95">;

export function policyFigures(p: PolicyAggregate): PolicyFigures {
  return {
    prunePct: p.prunePct,
    netPrunePct: p.netPrunePct,
    noImpactPct: p.noImpactPct,
    visibleNoImpactPct: p.visibleNoImpactPct,
    restorableNoImpactPct: p.restorableNoImpactPct,
    n: p.n,
    ci95: p.ci95,
  };
}

/**
 * The failure bucket of an impacted cut whose verdict carries no dependency evidence (an LLM
 * judge names a culprit object, not a Table 7 category): without it such cuts would count under
 * no category at all.
 */
export const UNCATEGORIZED = "uncategorized";

/** The stored shape of one evaluation, reduced to what aggregation needs. */
export function toRecord(evaluation: CutEvaluation): EvaluationRecord {
  const { verdict } = evaluation;
  return {
    policy: evaluation.policy,
    sessionId: evaluation.sessionId,
    cut: evaluation.cut,
    prefixTokens: evaluation.prefixTokens,
    tokensAfter: evaluation.tokensAfter,
    pruneRate: evaluation.pruneRate,
    noImpact: evaluation.noImpact,
    missingByCategory: verdict.evidence?.counts.byCategory ?? (evaluation.noImpact ? {} : { [UNCATEGORIZED]: 1 }),
    ...(evaluation.budget ? { budget: budgetKey(evaluation.budget) } : {}),
    ...(evaluation.netPruneRate !== undefined ? { netPruneRate: evaluation.netPruneRate } : {}),
    ...(evaluation.restores !== undefined ? { restores: evaluation.restores } : {}),
    ...(verdict.visibleNoImpact !== undefined ? { visibleNoImpact: verdict.visibleNoImpact } : {}),
    ...(verdict.restorableNoImpact !== undefined ? { restorableNoImpact: verdict.restorableNoImpact } : {}),
    ...(verdict.evidence?.counts.byKind ? { byKind: verdict.evidence.counts.byKind } : {}),
  };
}

/** The records of one budget: `undefined` for the policies' own settings, else a `budgetKey`. */
export function recordsAt(records: Iterable<EvaluationRecord>, budget: string | undefined): EvaluationRecord[] {
  const out: EvaluationRecord[] = [];
  for (const record of records) if (record.budget === budget) out.push(record);
  return out;
}

interface Tally {
  cuts: number;
  prune: number;
  before: number;
  after: number;
  noImpact: number;
  net: number;
  netN: number;
  visible: number;
  restorable: number;
  readings: number;
  restores: number;
  failures: Record<string, number>;
}

const emptyTally = (): Tally => ({
  cuts: 0,
  prune: 0,
  before: 0,
  after: 0,
  noImpact: 0,
  net: 0,
  netN: 0,
  visible: 0,
  restorable: 0,
  readings: 0,
  restores: 0,
  failures: {},
});

/** Aggregates per policy, in the order `policyOrder` gives (then any other policy, by id). */
export function aggregatePolicies(records: Iterable<EvaluationRecord>, policyOrder: readonly string[] = []): PolicyAggregate[] {
  const byPolicy = new Map<string, Tally>();
  for (const id of policyOrder) byPolicy.set(id, emptyTally());
  for (const record of records) {
    let row = byPolicy.get(record.policy);
    if (!row) byPolicy.set(record.policy, (row = emptyTally()));
    addRecord(row, record);
  }
  const known = new Set(policyOrder);
  const ids = [...policyOrder, ...[...byPolicy.keys()].filter((id) => !known.has(id)).sort()];
  return ids.map((id) => summarizeTally(id, byPolicy.get(id)!));
}

function addRecord(row: Tally, record: EvaluationRecord): void {
  row.cuts++;
  row.prune += record.pruneRate;
  row.before += record.prefixTokens;
  row.after += record.tokensAfter;
  if (record.netPruneRate !== undefined) {
    row.net += record.netPruneRate;
    row.netN++;
    row.restores += record.restores ?? 0;
  }
  if (record.visibleNoImpact !== undefined && record.restorableNoImpact !== undefined) {
    row.readings++;
    if (record.visibleNoImpact) row.visible++;
    if (record.restorableNoImpact) row.restorable++;
  }
  if (record.noImpact) row.noImpact++;
  else for (const [category, count] of Object.entries(record.missingByCategory)) if (count > 0) row.failures[category] = (row.failures[category] ?? 0) + 1;
}

function summarizeTally(id: string, row: Tally): PolicyAggregate {
  const readings = row.readings > 0 && row.readings === row.cuts;
  const nets = row.netN > 0 && row.netN === row.cuts;
  const visible = readings ? rateWithInterval(row.visible, row.cuts) : null;
  const restorable = readings ? rateWithInterval(row.restorable, row.cuts) : null;
  return {
    id,
    cuts: row.cuts,
    prunePct: row.cuts === 0 ? 0 : round((100 * row.prune) / row.cuts),
    tokenPrunePct: row.before === 0 ? 0 : round(100 * (1 - row.after / row.before)),
    netPrunePct: nets ? round((100 * row.net) / row.cuts) : null,
    noImpactPct: row.cuts === 0 ? 0 : round((100 * row.noImpact) / row.cuts),
    noImpact: row.noImpact,
    n: row.cuts,
    ci95: rateWithInterval(row.noImpact, row.cuts).ci95,
    visibleNoImpactPct: visible?.pct ?? null,
    visibleCi95: visible?.ci95 ?? null,
    restorableNoImpactPct: restorable?.pct ?? null,
    restorableCi95: restorable?.ci95 ?? null,
    restoresPerCut: nets ? round(row.restores / row.cuts) : null,
    failures: row.failures,
  };
}

/** 100 · k / n with the Wilson 95 % interval, both in percent with two decimals (0 and [0, 0] when n = 0). */
export function rateWithInterval(k: number, n: number): RateWithInterval {
  if (n === 0) return { pct: 0, ci95: [0, 0] };
  const interval = wilson(k, n);
  return { pct: round((100 * k) / n), ci95: [round(100 * interval.low), round(100 * interval.high)] };
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
  let both = 0,
    onlyA = 0,
    onlyB = 0,
    neither = 0;
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
export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
