import { describeRule, isRandomised } from "../assignment/assign";
import { CACHED, CALLS, INPUT, OUTPUT, WRITE, type UsageAggregator } from "../assignment/aggregate";
import { clusterBootstrapTotals, reductionOfTotals } from "./cluster-bootstrap";
import { billedCost, DEFAULT_PRICES, type Prices, type TokenTotals } from "../../rollout/billed-cost";
import { DEFAULT_WINDOW, formatMinute } from "../assignment/local-time";
import { hourlyPoints, type DayCurve, type HourPoint } from "./hourly";
import type { Group } from "../usage/schema";

export interface GroupSummary extends TokenTotals {
  accounts: number;
  meanInputTokens: number;
  meanCachedInputTokens: number;
  meanCacheWriteTokens: number;
  meanOutputTokens: number;
  costUsd: number;
  costPerCallUsd: number;
}

export interface OnlineReport {
  assignment: { rule: string; randomised: boolean; note: string };
  window: { start: string; end: string; timeZone: string };
  groups: Record<Group, GroupSummary>;
  /** 100 × (1 − treatment mean / control mean) over the window, post-rollout, volatile windows excluded. */
  reductionPct: number;
  /** Percentile interval of a bootstrap that resamples accounts within each group. */
  ci95: [number, number];
  peakReductionPct: number | null;
  peakHour: number | null;
  /** Pooled over days, one point per local hour of the window. */
  hourly: HourPoint[];
  /** Day by day (local dates). */
  daily: DayCurve[];
  cost: { prices: Prices; treatmentPerCall: number; controlPerCall: number; reductionPct: number; ci95: [number, number] };
  /** Difference-in-differences against the pre-rollout period, when one was given and has both groups. */
  did: { preReductionPct: number; postReductionPct: number; didPct: number; ci95: [number, number] } | null;
  balance: {
    treatmentAccountShare: number;
    treatmentCallShare: number;
    callsPerAccount: Record<Group, number>;
    preMeanInputTokens: Record<Group, number> | null;
  };
  counts: UsageAggregator["counts"];
}

export interface EstimateOptions {
  seed?: number;
  iterations?: number;
  prices?: Prices;
  /** Bootstrap bands per hourly point (costs `hours × iterations × accounts`); default true. */
  hourlyIntervals?: boolean;
}

/** Turns the aggregated cells into the online report: groups, reduction with its interval, curves, cost, DiD. */
export function estimateOnline(agg: UsageAggregator, options: EstimateOptions = {}): OnlineReport {
  const seed = options.seed ?? 1;
  const iterations = options.iterations ?? 2_000;
  const prices = options.prices ?? DEFAULT_PRICES;
  const post: Record<Group, number[][]> = { treatment: [], control: [] };
  const did: Record<Group, number[][]> = { treatment: [], control: [] };
  let hasPre = false;
  for (const account of agg.accounts.values()) {
    const p = sumCells(account.post);
    const q = sumCells(account.pre);
    if (q[CALLS]! > 0) hasPre = true;
    if (p[CALLS]! > 0) post[account.group].push([p[CALLS]!, p[INPUT]!, p[CACHED]!, p[WRITE]!, p[OUTPUT]!, billedCost(totalsOf(p), prices)]);
    did[account.group].push([q[CALLS]!, q[INPUT]!, p[CALLS]!, p[INPUT]!]);
  }
  const arms = [post.treatment, post.control];
  const ci = clusterBootstrapTotals(arms, reductionOfTotals, { seed, iterations });
  const costCi = clusterBootstrapTotals(arms, (t) => 100 * (1 - t[0]![5]! / t[0]![0]! / (t[1]![5]! / t[1]![0]!)), { seed: seed + 1, iterations });
  const groups = { treatment: summarise(post.treatment, prices), control: summarise(post.control, prices) };
  const { hourly, daily } = hourlyPoints(agg, { seed: seed + 2, iterations: options.hourlyIntervals === false ? 0 : iterations });
  const peak = hourly
    .filter((h) => h.reductionPct !== null)
    .reduce<HourPoint | null>((best, h) => (best === null || h.reductionPct! > best.reductionPct! ? h : best), null);
  const window = agg.options.window ?? DEFAULT_WINDOW;
  const randomised = isRandomised(agg.options.rule);
  return {
    assignment: {
      rule: describeRule(agg.options.rule),
      randomised,
      note: randomised
        ? "accounts are split by a salted hash: a randomised comparison"
        : "the split is not randomised: group differences may come from who the accounts are, not only from the policy",
    },
    window: { start: formatMinute(window.startMinute), end: formatMinute(window.endMinute), timeZone: agg.options.timeZone },
    groups,
    reductionPct: ci.estimate,
    ci95: [ci.low, ci.high],
    peakReductionPct: peak?.reductionPct ?? null,
    peakHour: peak?.hour ?? null,
    hourly,
    daily,
    cost: {
      prices,
      treatmentPerCall: groups.treatment.costPerCallUsd,
      controlPerCall: groups.control.costPerCallUsd,
      reductionPct: costCi.estimate,
      ci95: [costCi.low, costCi.high],
    },
    did: hasPre ? differenceInDifferences(did, seed + 3, iterations) : null,
    balance: {
      treatmentAccountShare: groups.treatment.accounts / (groups.treatment.accounts + groups.control.accounts),
      treatmentCallShare: groups.treatment.calls / (groups.treatment.calls + groups.control.calls),
      callsPerAccount: { treatment: groups.treatment.calls / groups.treatment.accounts, control: groups.control.calls / groups.control.accounts },
      preMeanInputTokens: hasPre ? { treatment: preMean(did.treatment), control: preMean(did.control) } : null,
    },
    counts: { ...agg.counts },
  };
}

function sumCells(cells: Map<number, Float64Array>): Float64Array {
  const out = new Float64Array(5);
  for (const sums of cells.values()) for (let j = 0; j < 5; j++) out[j]! += sums[j]!;
  return out;
}

function totalsOf(s: ArrayLike<number>): TokenTotals {
  return { calls: s[CALLS]!, input: s[INPUT]!, cached: s[CACHED]!, write: s[WRITE]!, output: s[OUTPUT]! };
}

function summarise(units: number[][], prices: Prices): GroupSummary {
  const s = [0, 0, 0, 0, 0, 0];
  for (const u of units) for (let j = 0; j < 6; j++) s[j]! += u[j]!;
  const t = totalsOf(s);
  const cost = billedCost(t, prices);
  return {
    ...t,
    accounts: units.length,
    meanInputTokens: t.input / t.calls,
    meanCachedInputTokens: t.cached / t.calls,
    meanCacheWriteTokens: t.write / t.calls,
    meanOutputTokens: t.output / t.calls,
    costUsd: cost,
    costPerCallUsd: cost / t.calls,
  };
}

function preMean(units: number[][]): number {
  let calls = 0,
    input = 0;
  for (const u of units) ((calls += u[0]!), (input += u[1]!));
  return input / calls;
}

/**
 * Ratio-scale difference-in-differences: 100 × (1 − (T_post/C_post) / (T_pre/C_pre)). A
 * non-randomised split (the e-mail rule) can start unequal; this removes a constant ratio between
 * the groups that was already there before the rollout. Accounts are resampled with both periods.
 */
function differenceInDifferences(units: Record<Group, number[][]>, seed: number, iterations: number) {
  const stat = (t: readonly number[][]) => {
    const [tr, co] = t;
    return 100 * (1 - tr![3]! / tr![2]! / (co![3]! / co![2]!) / (tr![1]! / tr![0]! / (co![1]! / co![0]!)));
  };
  const r = clusterBootstrapTotals([units.treatment, units.control], stat, { seed, iterations });
  const tot = (arm: number[][], j: number) => arm.reduce((a, u) => a + u[j]!, 0);
  const ratio = (j: number, k: number) => tot(units.treatment, k) / tot(units.treatment, j) / (tot(units.control, k) / tot(units.control, j));
  return { preReductionPct: 100 * (1 - ratio(0, 1)), postReductionPct: 100 * (1 - ratio(2, 3)), didPct: r.estimate, ci95: [r.low, r.high] as [number, number] };
}
