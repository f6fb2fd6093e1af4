import { checkCounts, wilson, Z95, type ProportionInterval } from "./wilson";

/**
 * Intervals for a difference of two proportions built from Wilson intervals ("square and add",
 * Newcombe 1998). They inherit Wilson's good behaviour at 0 and 1 and at small n, where the Wald
 * interval p̂₁ − p̂₂ ± z·SE fails badly.
 */
export interface DifferenceInterval {
  /** p̂₁ − p̂₂. NaN when either side has n = 0. */
  diff: number;
  low: number;
  high: number;
}

export interface IndependentDifference extends DifferenceInterval {
  first: ProportionInterval;
  second: ProportionInterval;
}

/**
 * Newcombe's hybrid score interval (1998, method 10) for p₁ − p₂ from two independent samples —
 * e.g. the no-impact rates of two policies judged on different suites. With Wilson limits
 * (l₁, u₁), (l₂, u₂) for each rate and d = p̂₁ − p̂₂:
 *
 *   low  = d − √( (p̂₁ − l₁)² + (u₂ − p̂₂)² )
 *   high = d + √( (u₁ − p̂₁)² + (p̂₂ − l₂)² )
 *
 * Known values (Newcombe 1998, Table II): 56/70 − 48/80 → [0.0524, 0.3339];
 * 9/10 − 3/10 → [0.1705, 0.8090]. Edge cases: either n = 0 → diff NaN, interval [−1, 1];
 * the limits are clamped to [−1, 1]. Policies replayed on the same cut points are paired: use
 * `pairedDiff` (or `mcnemarExact`) for them, which is narrower when the two agree often.
 */
export function newcombeDiff(first: { successes: number; n: number }, second: { successes: number; n: number }, z: number = Z95): IndependentDifference {
  const a = wilson(first.successes, first.n, z);
  const b = wilson(second.successes, second.n, z);
  if (a.n === 0 || b.n === 0) return { diff: Number.NaN, low: -1, high: 1, first: a, second: b };
  const diff = a.rate - b.rate;
  return {
    diff,
    low: Math.max(-1, diff - Math.hypot(a.rate - a.low, b.high - b.rate)),
    high: Math.min(1, diff + Math.hypot(a.high - a.rate, b.rate - b.low)),
    first: a,
    second: b,
  };
}

/**
 * A paired 2×2 table: each unit (a cut point of a session) judged under policy A and policy B.
 * `onlyA` and `onlyB` are the discordant cells McNemar's test looks at.
 */
export interface PairedTable {
  /** Both pass (no impact under A and under B). */
  both: number;
  /** A passes, B fails. */
  onlyA: number;
  /** B passes, A fails. */
  onlyB: number;
  /** Both fail. */
  neither: number;
}

export interface PairedDifference extends DifferenceInterval {
  n: number;
  rateA: ProportionInterval;
  rateB: ProportionInterval;
  /** The (continuity-adjusted) correlation φ̂ the interval used. */
  phi: number;
}

/**
 * Newcombe's interval for a difference of paired proportions (1998b, method 10): the square-and-add
 * limits above with a correction for the correlation between the two rates. With n pairs,
 * p̂_A = (both + onlyA)/n, p̂_B = (both + onlyB)/n, d = p̂_A − p̂_B = (onlyA − onlyB)/n and
 * Wilson limits (l_A, u_A), (l_B, u_B):
 *
 *   low  = d − √( (p̂_A − l_A)² − 2φ̂(p̂_A − l_A)(u_B − p̂_B) + (u_B − p̂_B)² )
 *   high = d + √( (p̂_B − l_B)² − 2φ̂(p̂_B − l_B)(u_A − p̂_A) + (u_A − p̂_A)² )
 *
 * φ̂ = C / √(r₁ r₂ c₁ c₂) over the table's margins, with C = ad − bc − n/2 when ad − bc > n/2,
 * C = 0 when 0 ≤ ad − bc ≤ n/2 and C = ad − bc when negative (Newcombe's continuity adjustment);
 * φ̂ = 0 when any margin is empty. Known value (Fagerland et al. 2017, Cavo 2012 data):
 * both 59, onlyA 6, onlyB 16, neither 80 → d = −0.0621, [−0.1186, −0.0046].
 * Edge cases: n = 0 → diff NaN, [−1, 1]; all pairs concordant → d = 0 with a non-degenerate
 * interval; counts must be non-negative.
 */
export function pairedDiff(table: PairedTable, z: number = Z95): PairedDifference {
  const { both, onlyA, onlyB, neither } = table;
  for (const [name, value] of Object.entries(table)) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a count ≥ 0, got ${value}`);
  }
  const n = both + onlyA + onlyB + neither;
  checkCounts(both + onlyA, n);
  const rateA = wilson(both + onlyA, n, z);
  const rateB = wilson(both + onlyB, n, z);
  if (n === 0) return { n, diff: Number.NaN, low: -1, high: 1, rateA, rateB, phi: 0 };
  const phi = pairedPhi(table, n);
  const diff = (onlyA - onlyB) / n;
  const dlA = rateA.rate - rateA.low;
  const duA = rateA.high - rateA.rate;
  const dlB = rateB.rate - rateB.low;
  const duB = rateB.high - rateB.rate;
  return {
    n,
    diff,
    low: Math.max(-1, diff - Math.sqrt(Math.max(0, dlA * dlA - 2 * phi * dlA * duB + duB * duB))),
    high: Math.min(1, diff + Math.sqrt(Math.max(0, dlB * dlB - 2 * phi * dlB * duA + duA * duA))),
    rateA,
    rateB,
    phi,
  };
}

function pairedPhi({ both, onlyA, onlyB, neither }: PairedTable, n: number): number {
  const margins = [both + onlyA, onlyB + neither, both + onlyB, onlyA + neither];
  if (margins.some((m) => m === 0)) return 0;
  const cross = both * neither - onlyA * onlyB;
  const adjusted = cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross;
  return adjusted / Math.sqrt(margins[0]! * margins[1]! * margins[2]! * margins[3]!);
}
