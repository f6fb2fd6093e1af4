/**
 * The standard normal quantile function Φ⁻¹(p), for turning a confidence level into z
 * (level 0.95 → z = Φ⁻¹(0.975) ≈ 1.959964).
 *
 * Acklam's rational approximation (relative error < 1.2e-9 over (0, 1)): a central rational
 * function for 0.02425 ≤ p ≤ 0.97575 and a tail one in √(−2 ln p) outside it. Good to eight
 * decimals, which is far below anything a 95 % interval printed to two decimals can show.
 * Edge cases: p = 0 → −∞, p = 1 → +∞, p outside [0, 1] or NaN → RangeError.
 */
const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239] as const;
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1] as const;
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] as const;
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416] as const;
const LOW = 0.02425;

export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile needs 0 ≤ p ≤ 1, got ${p}`);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p < LOW) return tail(p);
  if (p > 1 - LOW) return -tail(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
}

function tail(p: number): number {
  const q = Math.sqrt(-2 * Math.log(p));
  return (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
}

/** Two-sided critical value for a confidence level: `zForLevel(0.95)` ≈ 1.959964. */
export function zForLevel(level: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`confidence level must be in (0, 1), got ${level}`);
  return normalQuantile(1 - (1 - level) / 2);
}
