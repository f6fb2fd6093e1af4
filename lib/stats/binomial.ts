/**
 * Exact binomial probabilities in log space, so tails stay accurate for thousands of trials
 * (2⁻ᵐ underflows past m ≈ 1,074). Linear in the number of trials.
 */

/** ln(k!) for k = 0..m, by cumulative sums (exact enough: the error grows like m·ε). */
export function logFactorials(m: number): Float64Array {
  const out = new Float64Array(m + 1);
  for (let k = 2; k <= m; k++) out[k] = out[k - 1]! + Math.log(k);
  return out;
}

/**
 * P(X ≤ k) for X ~ Binomial(m, p), computed as a log-sum-exp of the pmf terms.
 * Edge cases: k < 0 → 0; k ≥ m → 1; p = 0 or 1 handled exactly.
 */
export function binomialCdf(k: number, m: number, p: number): number {
  if (!Number.isInteger(m) || m < 0) throw new RangeError(`trials must be a whole number ≥ 0, got ${m}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be in [0, 1], got ${p}`);
  if (k < 0) return 0;
  if (k >= m) return 1;
  const top = Math.floor(k);
  if (p === 0) return 1;
  if (p === 1) return 0;
  const lf = logFactorials(m);
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  const terms: number[] = [];
  for (let i = 0; i <= top; i++) terms.push(lf[m]! - lf[i]! - lf[m - i]! + i * lp + (m - i) * lq);
  let max = -Infinity;
  for (const t of terms) if (t > max) max = t;
  let sum = 0;
  for (const t of terms) sum += Math.exp(t - max);
  return Math.min(1, Math.exp(max + Math.log(sum)));
}

/** P(X = k) for X ~ Binomial(m, p). */
export function binomialPmf(k: number, m: number, p: number): number {
  if (!Number.isInteger(k) || k < 0 || k > m) return 0;
  if (p === 0) return k === 0 ? 1 : 0;
  if (p === 1) return k === m ? 1 : 0;
  const lf = logFactorials(m);
  return Math.exp(lf[m]! - lf[k]! - lf[m - k]! + k * Math.log(p) + (m - k) * Math.log1p(-p));
}
