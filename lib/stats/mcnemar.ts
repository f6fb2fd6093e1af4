import { binomialCdf, binomialPmf } from "./binomial";
import { pairedDiff, type PairedDifference } from "./newcombe";
import { Z95 } from "./wilson";

/**
 * McNemar's exact test for two policies judged on the same cut points.
 *
 * Only discordant pairs carry information about which policy is better: b = A passes and B fails,
 * c = B passes and A fails. Under H₀ (equal pass rates) each discordant pair is a fair coin, so
 * b ~ Binomial(b + c, ½) and the two-sided exact p-value is
 *
 *   p = min(1, 2 · P(X ≤ min(b, c))),  X ~ Binomial(b + c, ½)
 *
 * (doubling the smaller tail, which for a symmetric null equals summing every outcome at most as
 * likely as the observed one). `midP` subtracts the observed point once — less conservative, for
 * reporting beside the exact value: 2·P(X < min) + P(X = min). Hand-checked values: (0, 5) → 2/32 = 0.0625;
 * (1, 9) → 2·11/1024 = 0.021484375; b = c → 1.
 *
 * Edge cases: b + c = 0 → p = 1 (no discordant pairs: no evidence either way); b and c must be
 * whole numbers ≥ 0.
 *
 * Pass the concordant cells as well to get the paired difference p̂_A − p̂_B = (b − c)/n with
 * Newcombe's paired interval (`pairedDiff`).
 */
export interface McNemarResult {
  b: number;
  c: number;
  discordant: number;
  pValue: number;
  midP: number;
  /** Present when the concordant cells were given. */
  difference?: PairedDifference;
}

export function mcnemarExact(b: number, c: number, concordant?: { both: number; neither: number }, z: number = Z95): McNemarResult {
  for (const [name, value] of [
    ["b", b],
    ["c", c],
  ] as const) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${value}`);
  }
  const m = b + c;
  const k = Math.min(b, c);
  const tail = m === 0 ? 1 : binomialCdf(k, m, 0.5);
  const pValue = m === 0 ? 1 : Math.min(1, 2 * tail);
  const midP = m === 0 ? 1 : Math.min(1, 2 * tail - binomialPmf(k, m, 0.5));
  return {
    b,
    c,
    discordant: m,
    pValue,
    midP,
    ...(concordant ? { difference: pairedDiff({ both: concordant.both, onlyA: b, onlyB: c, neither: concordant.neither }, z) } : {}),
  };
}
