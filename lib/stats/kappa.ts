import { checkSquare } from "./agreement";
import { Z95 } from "./wilson";

/**
 * Chance-corrected agreement: Cohen's κ for two raters, Fleiss' κ for many.
 * κ = (p_o − p_e) / (1 − p_e): 1 is perfect agreement, 0 is what independent raters with the same
 * marginals would reach, negative is worse than chance.
 */
export interface KappaResult {
  kappa: number;
  /** Observed agreement p_o. */
  observed: number;
  /** Agreement expected by chance p_e. */
  expected: number;
  n: number;
  /** Large-sample standard error (NaN where undefined). */
  se: number;
  /** Wald interval κ ± z·se, clamped to [−1, 1]. */
  low: number;
  high: number;
}

/**
 * Cohen's κ from a square confusion matrix (rows rater 1, columns rater 2).
 *
 *   p_o = Σᵢ pᵢᵢ,  p_e = Σᵢ pᵢ. p.ᵢ,  κ = (p_o − p_e)/(1 − p_e)
 *
 * Standard error: the asymptotic formula of Fleiss, Cohen & Everitt (1969), valid without
 * assuming κ = 0:
 *
 *   var(κ) = [ Σᵢ pᵢᵢ((1 − p_e) − (pᵢ. + p.ᵢ)(1 − p_o))²
 *            + (1 − p_o)² Σᵢ≠ⱼ pᵢⱼ(p.ᵢ + pⱼ.)² − (p_o p_e − 2p_e + p_o)² ] / (n (1 − p_e)⁴)
 *
 * Textbook value: [[20, 5], [10, 15]] → p_o = 0.7, p_e = 0.5, κ = 0.4.
 * Edge cases: n = 0 → everything NaN; p_e = 1 (both raters used one and the same category for
 * every unit) → κ is undefined: NaN, even though p_o = 1 — report percent agreement instead.
 */
export function cohenKappa(counts: readonly (readonly number[])[], z: number = Z95): KappaResult {
  const n = checkSquare(counts);
  const k = counts.length;
  if (n === 0) return { kappa: Number.NaN, observed: Number.NaN, expected: Number.NaN, n, se: Number.NaN, low: Number.NaN, high: Number.NaN };
  const p = counts.map((row) => row.map((c) => c / n));
  const rows = p.map((row) => row.reduce((s, x) => s + x, 0));
  const cols = p[0]!.map((_, j) => p.reduce((s, row) => s + row[j]!, 0));
  let po = 0;
  let pe = 0;
  for (let i = 0; i < k; i++) {
    po += p[i]![i]!;
    pe += rows[i]! * cols[i]!;
  }
  if (pe >= 1 - 1e-15) return { kappa: Number.NaN, observed: po, expected: pe, n, se: Number.NaN, low: Number.NaN, high: Number.NaN };
  const kappa = (po - pe) / (1 - pe);
  let a = 0;
  let b = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (i === j) a += p[i]![i]! * (1 - pe - (rows[i]! + cols[i]!) * (1 - po)) ** 2;
      else b += p[i]![j]! * (cols[i]! + rows[j]!) ** 2;
    }
  }
  const variance = (a + (1 - po) ** 2 * b - (po * pe - 2 * pe + po) ** 2) / (n * (1 - pe) ** 4);
  const se = Math.sqrt(Math.max(0, variance));
  return { kappa, observed: po, expected: pe, n, se, low: Math.max(-1, kappa - z * se), high: Math.min(1, kappa + z * se) };
}

/**
 * Fleiss' κ for m raters per unit. `ratings[i][j]` = how many raters put unit i in category j;
 * every unit must have the same number of raters m ≥ 2.
 *
 *   Pᵢ = (Σⱼ nᵢⱼ² − m) / (m(m − 1)),  P̄ = mean Pᵢ,  pⱼ = Σᵢ nᵢⱼ / (N m),  P̄_e = Σⱼ pⱼ²
 *   κ = (P̄ − P̄_e) / (1 − P̄_e)
 *
 * Standard error under H₀: κ = 0 (Fleiss, Nee & Landis 1979):
 *   se₀ = √2 / (Σⱼ pⱼqⱼ √(N m (m − 1))) · √( (Σⱼ pⱼqⱼ)² − Σⱼ pⱼqⱼ(qⱼ − pⱼ) ),  qⱼ = 1 − pⱼ
 * It is a test statistic's scale, not an interval for κ ≠ 0: `low`/`high` use it and are only
 * indicative; bootstrap over units for a real interval.
 *
 * Textbook value (Fleiss 1971 layout, the 10 × 5 example with 14 raters on Wikipedia): κ ≈ 0.210.
 * Edge cases: no units → NaN; P̄_e = 1 (everybody always used one category) → NaN; unequal
 * rater counts or m < 2 → RangeError.
 */
export function fleissKappa(ratings: readonly (readonly number[])[], z: number = Z95): KappaResult {
  const units = ratings.length;
  if (units === 0) return { kappa: Number.NaN, observed: Number.NaN, expected: Number.NaN, n: 0, se: Number.NaN, low: Number.NaN, high: Number.NaN };
  const k = ratings[0]!.length;
  const m = ratings[0]!.reduce((s, x) => s + x, 0);
  if (m < 2) throw new RangeError(`Fleiss' kappa needs at least two raters per unit, got ${m}`);
  const totals = new Array<number>(k).fill(0);
  let pBar = 0;
  ratings.forEach((row, i) => {
    if (row.length !== k) throw new RangeError(`unit ${i} has ${row.length} categories, expected ${k}`);
    let sum = 0;
    let squares = 0;
    row.forEach((c, j) => {
      if (!Number.isInteger(c) || c < 0) throw new RangeError(`ratings[${i}][${j}] must be a whole count ≥ 0, got ${c}`);
      sum += c;
      squares += c * c;
      totals[j]! += c;
    });
    if (sum !== m) throw new RangeError(`unit ${i} has ${sum} ratings, expected ${m} like unit 0`);
    pBar += (squares - m) / (m * (m - 1));
  });
  pBar /= units;
  const pj = totals.map((t) => t / (units * m));
  const pe = pj.reduce((s, x) => s + x * x, 0);
  if (pe >= 1 - 1e-15) return { kappa: Number.NaN, observed: pBar, expected: pe, n: units, se: Number.NaN, low: Number.NaN, high: Number.NaN };
  const kappa = (pBar - pe) / (1 - pe);
  const pq = pj.reduce((s, x) => s + x * (1 - x), 0);
  const pqqp = pj.reduce((s, x) => s + x * (1 - x) * (1 - 2 * x), 0);
  const se = (Math.SQRT2 / (pq * Math.sqrt(units * m * (m - 1)))) * Math.sqrt(Math.max(0, pq * pq - pqqp));
  return { kappa, observed: pBar, expected: pe, n: units, se, low: Math.max(-1, kappa - z * se), high: Math.min(1, kappa + z * se) };
}

/**
 * Turns per-unit label lists (one label per rater) into Fleiss' count rows over `categories`.
 * Labels outside `categories` → RangeError.
 */
export function ratingCounts<L>(labelsPerUnit: readonly (readonly L[])[], categories: readonly L[]): number[][] {
  return labelsPerUnit.map((labels, i) => {
    const row = categories.map(() => 0);
    for (const label of labels) {
      const j = categories.indexOf(label);
      if (j < 0) throw new RangeError(`unit ${i} has label ${String(label)}, not one of ${categories.map(String).join(", ")}`);
      row[j]! += 1;
    }
    return row;
  });
}
