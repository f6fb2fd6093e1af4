import assert from "node:assert/strict";
import { test } from "node:test";
import { binomialCdf, mcnemarExact } from "../../../lib/stats";

/** Hand-computed two-sided tails: 2 · Σ_{i ≤ min} C(m, i) / 2^m. */
const HAND: [b: number, c: number, p: number][] = [
  [0, 5, 2 / 32],
  [1, 9, (2 * (1 + 10)) / 1024],
  [2, 11, (2 * (1 + 13 + 78)) / 8192],
  [6, 16, (2 * (1 + 22 + 231 + 1540 + 7315 + 26334 + 74613)) / 4194304],
];

for (const [b, c, p] of HAND) {
  test(`McNemar exact: b = ${b}, c = ${c} → p = ${p.toPrecision(6)}`, () => {
    const r = mcnemarExact(b, c);
    assert.ok(Math.abs(r.pValue - p) < 1e-12, `${r.pValue} vs ${p}`);
    assert.equal(mcnemarExact(c, b).pValue, r.pValue);
  });
}

test("McNemar: b = c → p = 1 and mid-p = 1; no discordant pairs → p = 1", () => {
  assert.equal(mcnemarExact(3, 3).pValue, 1);
  assert.equal(mcnemarExact(3, 3).midP, 1);
  assert.equal(mcnemarExact(0, 0).pValue, 1);
  assert.equal(mcnemarExact(0, 0).discordant, 0);
});

test("mid-p = exact p − P(X = min): below the exact value", () => {
  const r = mcnemarExact(0, 5);
  assert.ok(Math.abs(r.midP - 1 / 32) < 1e-12);
});

test("large discordant counts stay finite and match the normal approximation", () => {
  const r = mcnemarExact(2_400, 2_600);
  const chi = (2_600 - 2_400 - 1) / Math.sqrt(5_000);
  const approx = 2 * (1 - phi(chi));
  assert.ok(r.pValue > 0 && r.pValue < 1);
  assert.ok(Math.abs(r.pValue - approx) < 0.002, `${r.pValue} vs ${approx}`);
  assert.equal(binomialCdf(5_000, 5_000, 0.5), 1);
});

test("with the concordant cells McNemar also returns the paired difference and its Newcombe interval", () => {
  const r = mcnemarExact(6, 16, { both: 59, neither: 80 });
  assert.ok(r.difference);
  assert.equal(Math.round(r.difference.diff * 10_000) / 10_000, -0.0621);
  assert.ok(r.pValue < 0.06 && r.pValue > 0.05);
});

test("non-integer or negative counts are refused", () => {
  assert.throws(() => mcnemarExact(1.5, 2), RangeError);
  assert.throws(() => mcnemarExact(-1, 2), RangeError);
});

/** Standard normal CDF via the Abramowitz–Stegun erf approximation (test-only, |error| < 1.5e-7). */
function phi(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}
