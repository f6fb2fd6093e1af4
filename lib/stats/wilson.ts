/**
 * Wilson score interval for a binomial proportion — the interval seed 000 reports for every
 * no-impact rate (Tables 3 and 4).
 *
 * With p̂ = x / n and critical value z:
 *
 *   centre    = (p̂ + z² / 2n) / (1 + z² / n)
 *   halfWidth = z / (1 + z² / n) · √( p̂(1 − p̂) / n + z² / 4n² )
 *   [low, high] = centre ∓ halfWidth
 *
 * Unlike the Wald interval it never leaves [0, 1], is not degenerate at x = 0 or x = n, and keeps
 * close to nominal coverage for the small suites we evaluate (33 sessions).
 *
 * Edge cases:
 * - n = 0: no information — `rate` is NaN and the interval is the whole [0, 1];
 * - x = 0 → low is exactly 0; x = n → high is exactly 1 (no floating-point crumbs);
 * - fractional x is allowed (calibrated or weighted estimates, see lib/evaluation/llm-judge/ab-calibrate.ts);
 * - x < 0, x > n, n < 0, non-finite inputs or z ≤ 0 → RangeError.
 */
export interface ProportionInterval {
  successes: number;
  n: number;
  /** x / n (NaN when n = 0). */
  rate: number;
  low: number;
  high: number;
}

/** Default critical value: the two-sided 95 % normal quantile as papers round it. */
export const Z95 = 1.96;

export function wilson(successes: number, n: number, z: number = Z95): ProportionInterval {
  checkCounts(successes, n);
  if (!(z > 0) || !Number.isFinite(z)) throw new RangeError(`z must be a positive number, got ${z}`);
  if (n === 0) return { successes, n, rate: Number.NaN, low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    successes,
    n,
    rate: p,
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
  };
}

/** Throws unless 0 ≤ successes ≤ n and both are finite. */
export function checkCounts(successes: number, n: number): void {
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`n must be a finite number ≥ 0, got ${n}`);
  if (!Number.isFinite(successes) || successes < 0 || successes > n) {
    throw new RangeError(`successes must be within 0..n (n = ${n}), got ${successes}`);
  }
}
