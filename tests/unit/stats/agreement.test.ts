import assert from "node:assert/strict";
import { test } from "node:test";
import { accuracy, confusionMatrix, percentAgreement } from "../../../lib/stats";

test("confusion matrix: first-appearance label order, rows = first rater", () => {
  const m = confusionMatrix(["pass", "fail", "pass", "pass"], ["pass", "pass", "fail", "pass"]);
  assert.deepEqual(m.labels, ["pass", "fail"]);
  assert.deepEqual(m.counts, [
    [2, 1],
    [1, 0],
  ]);
  assert.equal(m.n, 4);
});

test("confusion matrix with explicit labels keeps empty classes and refuses unknown labels", () => {
  const m = confusionMatrix(["pass"], ["pass"], ["pass", "warn", "fail"]);
  assert.deepEqual(m.counts, [
    [1, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ]);
  assert.throws(() => confusionMatrix(["pass"], ["maybe"], ["pass", "fail"]), RangeError);
  assert.throws(() => confusionMatrix(["pass"], []), RangeError);
  assert.deepEqual(confusionMatrix([], []).counts, []);
});

test("percent agreement is the diagonal share with a Wilson interval; empty → NaN over [0, 1]", () => {
  const a = percentAgreement([
    [20, 5],
    [10, 15],
  ]);
  assert.equal(a.successes, 35);
  assert.equal(a.n, 50);
  assert.equal(a.rate, 0.7);
  assert.ok(a.low > 0.55 && a.high < 0.82);
  const empty = percentAgreement([]);
  assert.ok(Number.isNaN(empty.rate));
});

test("accuracy of judge verdicts against human labels, with Wilson", () => {
  const r = accuracy([true, true, false, true, false], [true, false, false, true, true]);
  assert.equal(r.successes, 3);
  assert.equal(r.n, 5);
  assert.throws(() => accuracy([true], []), RangeError);
});
