import assert from "node:assert/strict";
import { test } from "node:test";
import { calibrateCounts, calibrateNoImpact, type CalibrationCase, type TieRule } from "../../../../lib/evaluation/llm-judge/ab-calibrate";
import { wilson } from "../../../../lib/stats";

const pct = (x: number) => Math.round(x * 10_000) / 100;

/**
 * Seed 000: n = 332, raw Self-GC 307 (92.47 %), raw oldest-turn 298 (89.76 %); 20 audited
 * disagreements — A/B prefers Self-GC 11, tie 7, baseline 2. Balanced audit: 10 cases where the
 * single-prompt judge passed Self-GC only, 10 where it passed the baseline only (s = 10).
 */
const PAPER = {
  n: 332,
  passA: 307,
  passB: 298,
  audited: { passedA: { aBetter: 7, tie: 3, bBetter: 0 }, passedB: { aBetter: 4, tie: 4, bBetter: 2 } },
};

test("raw rates are the paper's 92.47 % and 89.76 %", () => {
  const r = calibrateCounts(PAPER);
  assert.deepEqual([pct(r.raw.a.rate), pct(r.raw.b.rate)], [92.47, 89.76]);
  assert.equal(r.audited.total, 20);
});

test("calibrated Self-GC reproduces Table 4 exactly: 308/332 = 92.77 % [89.47, 95.09]", () => {
  const { a } = calibrateCounts(PAPER).calibrated;
  assert.equal(a.successes, 308);
  assert.deepEqual([pct(a.rate), pct(a.low), pct(a.high)], [92.77, 89.47, 95.09]);
});

test("calibrated oldest-turn is 290/332 = 87.35 % [83.34, 90.50]; the paper's 87.46 % is 0.37 of a session higher (documented discrepancy)", () => {
  const { b } = calibrateCounts(PAPER).calibrated;
  assert.equal(b.successes, 290);
  assert.deepEqual([pct(b.rate), pct(b.low), pct(b.high)], [87.35, 83.34, 90.5]);
  assert.ok(Math.abs(0.8746 * 332 - b.successes - 0.37) < 0.01);
});

test("87.46 % is not k/332 for any whole k, so no per-session relabelling can produce it", () => {
  const hits = Array.from({ length: 333 }, (_, k) => k).filter((k) => pct(k / 332) === 87.46);
  assert.deepEqual(hits, []);
  const paperInterval = wilson(0.8746 * 332, 332);
  assert.deepEqual([pct(paperInterval.low), pct(paperInterval.high)], [83.46, 90.6], "the paper's interval is Wilson at the fractional count");
});

test("the sum of the two calibrated counts is 598 for every audit split: the paper's 598.37 identifies ties as both-impacted", () => {
  for (let s = 3; s <= 13; s++) {
    const passedA = { aBetter: Math.min(s, 11), tie: Math.max(0, s - 11), bBetter: 0 };
    const rest = 20 - s;
    const passedB = { aBetter: 11 - passedA.aBetter, tie: 7 - passedA.tie, bBetter: 2 };
    assert.equal(passedB.aBetter + passedB.tie + passedB.bBetter, rest);
    const r = calibrateCounts({ ...PAPER, audited: { passedA, passedB } });
    assert.equal(r.calibrated.a.successes + r.calibrated.b.successes, 598, `s = ${s}`);
    assert.equal(r.calibrated.a.successes, 318 - s);
  }
  const sums: Record<TieRule, number> = { "both-impacted": 598, keep: 605, "both-no-impact": 612 };
  for (const [tie, sum] of Object.entries(sums) as [TieRule, number][]) {
    const r = calibrateCounts(PAPER, { tie });
    assert.equal(r.calibrated.a.successes + r.calibrated.b.successes, sum, tie);
  }
});

test("per-cut cases give the same result as counts", () => {
  const cases: CalibrationCase[] = [];
  const push = (count: number, c: CalibrationCase) => {
    for (let i = 0; i < count; i++) cases.push({ ...c });
  };
  // 19 cuts passed Self-GC only (10 audited), 10 passed the baseline only (all audited): 307 − 19 = 298 − 10 = 288 both.
  push(288, { a: true, b: true });
  push(7, { a: true, b: false, ab: "A_better" });
  push(3, { a: true, b: false, ab: "tie" });
  push(9, { a: true, b: false });
  push(4, { a: false, b: true, ab: "A_better" });
  push(4, { a: false, b: true, ab: "tie" });
  push(2, { a: false, b: true, ab: "B_better" });
  push(332 - cases.length, { a: false, b: false, ab: "tie" });
  const fromCases = calibrateNoImpact(cases);
  assert.equal(fromCases.n, 332);
  assert.deepEqual(fromCases.calibrated, calibrateCounts(PAPER).calibrated);
  assert.equal(fromCases.audited.total, 20, "an A/B label on a concordant cut is ignored");
});

test("stratified extrapolation applies each stratum's A/B shares to all its discordant cases", () => {
  const r = calibrateCounts(
    {
      n: 100,
      passA: 90,
      passB: 80,
      onlyA: 20,
      onlyB: 10,
      audited: { passedA: { aBetter: 6, tie: 2, bBetter: 2 }, passedB: { aBetter: 1, tie: 1, bBetter: 3 } },
    },
    { extrapolate: true },
  );
  assert.equal(r.calibrated.a.successes, 70 + (20 * 6) / 10 + (10 * 1) / 5);
  assert.equal(r.calibrated.b.successes, 70 + (20 * 2) / 10 + (10 * 3) / 5);
  assert.equal(r.extrapolated, true);
});

test("no audit leaves the raw rates; impossible counts are refused", () => {
  const none = calibrateCounts({
    n: 10,
    passA: 7,
    passB: 6,
    audited: { passedA: { aBetter: 0, tie: 0, bBetter: 0 }, passedB: { aBetter: 0, tie: 0, bBetter: 0 } },
  });
  assert.deepEqual(none.calibrated, none.raw);
  const zero = { aBetter: 0, tie: 0, bBetter: 0 };
  assert.throws(() => calibrateCounts({ n: 10, passA: 11, passB: 6, audited: { passedA: zero, passedB: zero } }), RangeError);
  assert.throws(() => calibrateCounts({ n: 10, passA: 2, passB: 6, audited: { passedA: { aBetter: 3, tie: 0, bBetter: 0 }, passedB: zero } }), RangeError);
  assert.throws(() => calibrateCounts({ n: 10, passA: 7, passB: 6, onlyA: 3, onlyB: 1, audited: { passedA: zero, passedB: zero } }), RangeError);
  assert.throws(() => calibrateCounts({ n: 10, passA: 7, passB: 6, audited: { passedA: zero, passedB: zero } }, { extrapolate: true }), RangeError);
  assert.throws(() => calibrateCounts({ n: 10, passA: 7.5, passB: 6, audited: { passedA: zero, passedB: zero } }), RangeError);
});
