/**
 * Sample quantile of an ascending-sorted array, Hyndman & Fan type 7 (R's and NumPy's default):
 * h = (n − 1)·q, interpolate linearly between the neighbours of h.
 * Edge cases: empty → NaN; q outside [0, 1] → RangeError; one value → that value.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be in [0, 1], got ${q}`);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Arithmetic mean; NaN for an empty list. */
export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/** Sample standard deviation (n − 1 denominator); NaN with fewer than two values. */
export function sampleSd(values: ArrayLike<number>): number {
  if (values.length < 2) return Number.NaN;
  const m = mean(values);
  let ss = 0;
  for (let i = 0; i < values.length; i++) ss += (values[i]! - m) ** 2;
  return Math.sqrt(ss / (values.length - 1));
}
