import { Rng, seed32 } from "../../scenario/prng";
import { DEFAULT_ITERATIONS, type BootstrapResult } from "../../stats/bootstrap";
import { quantileSorted, sampleSd } from "../../stats/quantile";

/**
 * The cluster bootstrap of lib/stats (`clusterBootstrapMeanDiff`) on pre-summed clusters.
 *
 * Why a second entry point: a ratio estimator (total input tokens / total calls) depends on each
 * account only through its sums, so resampling an account is adding its sum vector. That keeps a
 * replicate O(accounts) instead of O(calls) — millions of calls otherwise make 2,000 replicates
 * impossible. The draws are the same as `clusterBootstrapMeanDiff`'s (one `Rng.next()` per
 * resampled unit, arm after arm, units in the given order), so on the same clusters and seed the
 * two give the same replicates; tests/unit/online/cluster-bootstrap.test.ts checks it.
 *
 * `arms[a][k]` is cluster k's vector of sums in arm a (e.g. `[calls, inputTokens]`); `statistic`
 * receives each arm's resampled totals. Non-finite replicates are dropped (counted out of `valid`).
 */
export function clusterBootstrapTotals(
  arms: readonly (readonly (readonly number[])[])[],
  statistic: (totals: readonly number[][]) => number,
  options: { seed: number; iterations?: number; level?: number },
): BootstrapResult {
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError(`iterations must be a whole number ≥ 1, got ${iterations}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const width = arms.find((a) => a.length > 0)?.[0]?.length ?? 0;
  const estimate = statistic(arms.map((arm) => sumAll(arm, width)));
  const replicates: number[] = [];
  if (arms.every((arm) => arm.length > 0)) {
    const rng = new Rng(seed32(options.seed));
    for (let r = 0; r < iterations; r++) {
      const totals = arms.map((arm) => {
        const t = new Array<number>(width).fill(0);
        for (let i = 0; i < arm.length; i++) {
          const unit = arm[Math.floor(rng.next() * arm.length)]!;
          for (let j = 0; j < width; j++) t[j]! += unit[j]!;
        }
        return t;
      });
      const value = statistic(totals);
      if (Number.isFinite(value)) replicates.push(value);
    }
  }
  const sorted = Float64Array.from(replicates).sort();
  const alpha = (1 - level) / 2;
  return {
    estimate,
    low: quantileSorted(sorted, alpha),
    high: quantileSorted(sorted, 1 - alpha),
    se: sorted.length >= 2 ? sampleSd(sorted) : Number.NaN,
    level,
    iterations,
    valid: sorted.length,
    units: Math.min(...arms.map((a) => a.length)),
  };
}

function sumAll(arm: readonly (readonly number[])[], width: number): number[] {
  const t = new Array<number>(width).fill(0);
  for (const unit of arm) for (let j = 0; j < width; j++) t[j]! += unit[j]!;
  return t;
}

/** 100 × (1 − treatment mean / control mean) from `[calls, input]` totals of [treatment, control]. */
export function reductionOfTotals(totals: readonly number[][]): number {
  const [t, c] = totals;
  return 100 * (1 - t![1]! / t![0]! / (c![1]! / c![0]!));
}
