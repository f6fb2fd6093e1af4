import { Rng, seed32 } from "../scenario/prng";
import { quantileSorted, sampleSd } from "./quantile";

/**
 * Seeded percentile bootstrap over paired units, with optional cluster resampling.
 *
 * "Paired" means each unit carries both policies' outcomes (e.g. `{ a: 1, b: 0 }` for one cut
 * point), so resampling whole units keeps the pairing and the statistic (a difference, a ratio,
 * an agreement rate) sees the correlation between the two policies. Cuts from the same session
 * are not independent — a session that is hard for one cut is hard for its neighbours — so pass
 * `cluster` (session or trace id) to resample whole sessions instead of cuts: the interval then
 * reflects between-session variation (Davison & Hinkley 1997, §3.8; Field & Welsh 2007).
 *
 * Interval: the type-7 quantiles (1 − level)/2 and (1 + level)/2 of the replicate statistics.
 * Determinism: the same items, statistic, seed and iteration count give the same result on every
 * machine (mulberry32 from lib/scenario/prng; one draw per resampled unit, in unit order).
 *
 * Edge cases:
 * - no units → estimate is `statistic([])` and the interval and se are NaN;
 * - one unit (or one cluster) → every replicate equals the estimate: a zero-width interval that
 *   says nothing about uncertainty — report `units` beside it;
 * - replicates where the statistic is not finite (0/0 in a ratio) are dropped and counted out of
 *   `valid`; if none is finite the interval is NaN.
 */
export interface BootstrapOptions<T> {
  /** Replicates (default 2,000). */
  iterations?: number;
  seed: number;
  /** Confidence level of the percentile interval (default 0.95). */
  level?: number;
  /** Resampling unit key (session or trace id). Omitted: each item is its own unit. */
  cluster?: (item: T, index: number) => string | number;
  /** The same as a list aligned with the items (`clusters[i]` is item i's session). */
  clusters?: readonly (string | number)[];
}

export interface BootstrapResult {
  /** The statistic on the original sample. */
  estimate: number;
  low: number;
  high: number;
  /** Standard deviation of the finite replicates (the bootstrap standard error). */
  se: number;
  level: number;
  iterations: number;
  /** Replicates whose statistic was finite. */
  valid: number;
  /** Resampling units: items, or clusters when `cluster` was given. */
  units: number;
}

export const DEFAULT_ITERATIONS = 2_000;

export function pairedBootstrap<T>(items: readonly T[], statistic: (sample: readonly T[]) => number, options: BootstrapOptions<T>): BootstrapResult {
  const { iterations, level } = checkOptions(options);
  const { clusters } = options;
  if (clusters && clusters.length !== items.length) throw new RangeError(`clusters has ${clusters.length} entries for ${items.length} items`);
  if (clusters && options.cluster) throw new RangeError("give either cluster or clusters, not both");
  const units = groupUnits(items, clusters ? (_item, i) => clusters[i]! : options.cluster);
  const estimate = statistic(items);
  const rng = new Rng(seed32(options.seed));
  const replicates: number[] = [];
  if (units.length > 0) {
    for (let r = 0; r < iterations; r++) {
      const value = statistic(resample(units, rng));
      if (Number.isFinite(value)) replicates.push(value);
    }
  }
  return summarise(estimate, replicates, { iterations, level, units: units.length });
}

/** Mean of `a − b` over paired units: the usual statistic for a paired bootstrap of two policies. */
export function meanDifference(pairs: readonly { a: number; b: number }[]): number {
  if (pairs.length === 0) return Number.NaN;
  let sum = 0;
  for (const p of pairs) sum += p.a - p.b;
  return sum / pairs.length;
}

/** An observation with the cluster (account, session, trace) it belongs to. */
export interface ClusteredValue {
  cluster: string | number;
  value: number;
}

/**
 * Mean of values clustered by account/session, with a cluster bootstrap interval — for online
 * A/B metrics such as input tokens per request, where requests of one account are correlated and
 * an item-level interval would be far too narrow. The estimate is the pooled mean over all
 * observations (a ratio estimator: total / count), so large clusters weigh more, as they do in
 * the traffic. Edge cases as `pairedBootstrap`.
 */
export function clusterBootstrapMean(
  observations: readonly ClusteredValue[],
  options: Omit<BootstrapOptions<ClusteredValue>, "cluster" | "clusters">,
): BootstrapResult {
  return pairedBootstrap(observations, valueMean, { ...options, cluster: (o) => o.cluster });
}

export interface ClusterMeanComparison {
  /** mean(treatment) − mean(control). */
  diff: BootstrapResult;
  /** (mean(treatment) − mean(control)) / mean(control): "−12 % input tokens". */
  relative: BootstrapResult;
}

/**
 * Difference and relative difference of two arms' means (treatment − control), resampling each
 * arm's clusters independently in every replicate (the arms are independent groups of accounts).
 * Edge cases: an empty arm → NaN estimates; control mean 0 → relative NaN (replicates dropped).
 */
export function clusterBootstrapMeanDiff(
  treatment: readonly ClusteredValue[],
  control: readonly ClusteredValue[],
  options: Omit<BootstrapOptions<ClusteredValue>, "cluster" | "clusters">,
): ClusterMeanComparison {
  const { iterations, level } = checkOptions(options);
  const key = (o: ClusteredValue) => o.cluster;
  const unitsT = groupUnits(treatment, key);
  const unitsC = groupUnits(control, key);
  const rng = new Rng(seed32(options.seed));
  const diffs: number[] = [];
  const relatives: number[] = [];
  if (unitsT.length > 0 && unitsC.length > 0) {
    for (let r = 0; r < iterations; r++) {
      const t = valueMean(resample(unitsT, rng));
      const c = valueMean(resample(unitsC, rng));
      if (Number.isFinite(t - c)) diffs.push(t - c);
      if (Number.isFinite((t - c) / c)) relatives.push((t - c) / c);
    }
  }
  const t = valueMean(treatment);
  const c = valueMean(control);
  const units = Math.min(unitsT.length, unitsC.length);
  return {
    diff: summarise(t - c, diffs, { iterations, level, units }),
    relative: summarise((t - c) / c, relatives, { iterations, level, units }),
  };
}

function valueMean(sample: readonly ClusteredValue[]): number {
  if (sample.length === 0) return Number.NaN;
  let sum = 0;
  for (const o of sample) sum += o.value;
  return sum / sample.length;
}

function checkOptions(options: { iterations?: number; level?: number; seed: number }): { iterations: number; level: number } {
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError(`iterations must be a whole number ≥ 1, got ${iterations}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  if (!Number.isSafeInteger(options.seed) || options.seed < 0) throw new RangeError(`seed must be a safe integer ≥ 0, got ${options.seed}`);
  return { iterations, level };
}

/** Items grouped into resampling units, clusters in order of first appearance. */
function groupUnits<T>(items: readonly T[], cluster?: (item: T, index: number) => string | number): T[][] {
  if (!cluster) return items.map((item) => [item]);
  const groups = new Map<string | number, T[]>();
  items.forEach((item, i) => {
    const key = cluster(item, i);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  });
  return [...groups.values()];
}

function resample<T>(units: readonly T[][], rng: Rng): T[] {
  const out: T[] = [];
  for (let i = 0; i < units.length; i++) {
    const unit = units[Math.floor(rng.next() * units.length)]!;
    for (const item of unit) out.push(item);
  }
  return out;
}

function summarise(estimate: number, replicates: number[], meta: { iterations: number; level: number; units: number }): BootstrapResult {
  const sorted = Float64Array.from(replicates).sort();
  const alpha = (1 - meta.level) / 2;
  return {
    estimate,
    low: quantileSorted(sorted, alpha),
    high: quantileSorted(sorted, 1 - alpha),
    se: sorted.length >= 2 ? sampleSd(sorted) : Number.NaN,
    level: meta.level,
    iterations: meta.iterations,
    valid: sorted.length,
    units: meta.units,
  };
}
