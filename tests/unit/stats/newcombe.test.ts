import assert from "node:assert/strict";
import { test } from "node:test";
import { newcombeDiff, pairedDiff } from "../../../lib/stats";

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

test("independent difference reproduces Newcombe (1998) Table II, method 10", () => {
  const a = newcombeDiff({ successes: 56, n: 70 }, { successes: 48, n: 80 });
  assert.deepEqual([r4(a.diff), r4(a.low), r4(a.high)], [0.2, 0.0524, 0.3339]);
  const b = newcombeDiff({ successes: 9, n: 10 }, { successes: 3, n: 10 });
  assert.deepEqual([r4(b.low), r4(b.high)], [0.1705, 0.809]);
  const c = newcombeDiff({ successes: 5, n: 56 }, { successes: 0, n: 29 });
  assert.deepEqual([r4(c.low), r4(c.high)], [-0.0381, 0.1926]);
});

test("independent difference: equal zero rates give a symmetric interval around 0; an empty side gives NaN over [−1, 1]", () => {
  const zero = newcombeDiff({ successes: 0, n: 10 }, { successes: 0, n: 10 });
  assert.equal(zero.diff, 0);
  assert.ok(Math.abs(zero.low + zero.high) < 1e-12);
  const empty = newcombeDiff({ successes: 0, n: 0 }, { successes: 3, n: 10 });
  assert.ok(Number.isNaN(empty.diff));
  assert.deepEqual([empty.low, empty.high], [-1, 1]);
});

test("paired difference reproduces Fagerland et al.'s Newcombe square-and-add value (Cavo 2012 table)", () => {
  const d = pairedDiff({ both: 59, onlyA: 6, onlyB: 16, neither: 80 });
  assert.deepEqual([r4(d.diff), r4(d.low), r4(d.high)], [-0.0621, -0.1186, -0.0046]);
  assert.equal(d.n, 161);
});

test("pairing narrows the interval when the two policies agree on most cut points", () => {
  const paired = pairedDiff({ both: 280, onlyA: 27, onlyB: 18, neither: 7 });
  const independent = newcombeDiff({ successes: 307, n: 332 }, { successes: 298, n: 332 });
  assert.ok(Math.abs(paired.diff - independent.diff) < 1e-12);
  assert.ok(paired.high - paired.low < independent.high - independent.low);
});

test("paired difference edge cases: all concordant → 0 inside a real interval; n = 0 → NaN; negative counts refused", () => {
  const same = pairedDiff({ both: 30, onlyA: 0, onlyB: 0, neither: 3 });
  assert.equal(same.diff, 0);
  assert.ok(same.low < 0 && same.high > 0);
  const empty = pairedDiff({ both: 0, onlyA: 0, onlyB: 0, neither: 0 });
  assert.ok(Number.isNaN(empty.diff));
  assert.throws(() => pairedDiff({ both: 1, onlyA: -1, onlyB: 0, neither: 0 }), RangeError);
});
