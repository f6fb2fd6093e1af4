import assert from "node:assert/strict";
import { test } from "node:test";
import { normalQuantile, wilson, zForLevel } from "../../../lib/stats";

const pct = (x: number) => Math.round(x * 10_000) / 100;

/** Seed 000 Tables 3 (Hard Set, n = 33) and 4 (Production Suite, n = 332): successes recovered from the rates. */
const PAPER: [label: string, successes: number, n: number, rate: number, low: number, high: number][] = [
  ["Hard Set oldest-turn", 22, 33, 66.67, 49.61, 80.25],
  ["Hard Set tool-prune", 23, 33, 69.7, 52.66, 82.62],
  ["Hard Set tool-mask+prune", 18, 33, 54.55, 37.99, 70.16],
  ["Hard Set hybrid", 19, 33, 57.58, 40.81, 72.76],
  ["Hard Set self-gc", 28, 33, 84.85, 69.08, 93.35],
  ["Production tool-prune", 258, 332, 77.71, 72.93, 81.86],
  ["Production tool-mask+prune", 266, 332, 80.12, 75.49, 84.06],
  ["Production hybrid", 278, 332, 83.73, 79.38, 87.31],
  ["Production self-gc Qwen3.6 (calibrated)", 308, 332, 92.77, 89.47, 95.09],
  ["Production self-gc Qwen3.7", 314, 332, 94.58, 91.59, 96.54],
  ["Production self-gc GLM-5.1", 303, 332, 91.27, 87.74, 93.85],
];

for (const [label, x, n, rate, low, high] of PAPER) {
  test(`Wilson reproduces seed 000's ${label}: ${x}/${n} = ${rate} [${low}, ${high}]`, () => {
    const w = wilson(x, n);
    assert.deepEqual([pct(w.rate), pct(w.low), pct(w.high)], [rate, low, high]);
  });
}

test("the paper's calibrated oldest-turn row 87.46 [83.46, 90.60] is Wilson at a fractional count (p̂ = 0.8746, n = 332)", () => {
  const w = wilson(0.8746 * 332, 332);
  assert.deepEqual([pct(w.low), pct(w.high)], [83.46, 90.6]);
});

test("z = 1.96 and the exact 97.5 % quantile agree to two decimals on every paper row", () => {
  for (const [, x, n] of PAPER) {
    const a = wilson(x, n);
    const b = wilson(x, n, zForLevel(0.95));
    assert.equal(pct(a.low), pct(b.low));
    assert.equal(pct(a.high), pct(b.high));
  }
});

test("n = 0 carries no information: rate NaN, interval [0, 1]", () => {
  const w = wilson(0, 0);
  assert.ok(Number.isNaN(w.rate));
  assert.equal(w.low, 0);
  assert.equal(w.high, 1);
});

test("x = 0 and x = n pin the outer limit exactly and stay non-degenerate", () => {
  const none = wilson(0, 10);
  assert.equal(none.low, 0);
  assert.ok(Math.abs(none.high - 0.2775) < 1e-4);
  const all = wilson(10, 10);
  assert.equal(all.high, 1);
  assert.ok(Math.abs(all.low - 0.7225) < 1e-4);
});

test("the interval is symmetric under swapping successes and failures", () => {
  const a = wilson(7, 40);
  const b = wilson(33, 40);
  assert.ok(Math.abs(a.low - (1 - b.high)) < 1e-12);
  assert.ok(Math.abs(a.high - (1 - b.low)) < 1e-12);
});

test("impossible counts are refused with a RangeError", () => {
  assert.throws(() => wilson(-1, 10), RangeError);
  assert.throws(() => wilson(11, 10), RangeError);
  assert.throws(() => wilson(1, Number.NaN), RangeError);
  assert.throws(() => wilson(1, 10, 0), RangeError);
});

test("normal quantiles: Φ⁻¹(0.975) ≈ 1.959964, symmetric tails, infinities at 0 and 1", () => {
  assert.ok(Math.abs(normalQuantile(0.975) - 1.959963985) < 1e-8);
  assert.ok(Math.abs(normalQuantile(0.995) - 2.575829304) < 1e-8);
  assert.ok(Math.abs(normalQuantile(0.001) + 3.090232306) < 1e-8);
  assert.equal(normalQuantile(0.5), 0);
  assert.equal(normalQuantile(0), -Infinity);
  assert.equal(normalQuantile(1), Infinity);
  assert.throws(() => normalQuantile(1.2), RangeError);
  assert.throws(() => zForLevel(1), RangeError);
});
