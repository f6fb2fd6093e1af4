import assert from "node:assert/strict";
import { test } from "node:test";
import { clusterBootstrapMean, clusterBootstrapMeanDiff, meanDifference, pairedBootstrap, wilson } from "../../../lib/stats";
import { Rng } from "../../../lib/scenario/prng";

type Pair = { a: number; b: number; session: string };

/** 40 sessions × 8 cuts; outcomes correlated within a session (a hard session fails most cuts). */
function pairs(seed: number, sessions = 40, cuts = 8): Pair[] {
  const rng = new Rng(seed);
  const out: Pair[] = [];
  for (let s = 0; s < sessions; s++) {
    const hard = rng.chance(0.3);
    for (let c = 0; c < cuts; c++) {
      out.push({ session: `s${s}`, a: rng.chance(hard ? 0.3 : 0.97) ? 1 : 0, b: rng.chance(hard ? 0.3 : 0.9) ? 1 : 0 });
    }
  }
  return out;
}

test("same seed → identical result; another seed → a different draw around the same estimate", () => {
  const data = pairs(7);
  const one = pairedBootstrap(data, meanDifference, { seed: 42, iterations: 500 });
  const two = pairedBootstrap(data, meanDifference, { seed: 42, iterations: 500 });
  const other = pairedBootstrap(data, meanDifference, { seed: 43, iterations: 500 });
  assert.deepEqual(one, two);
  assert.equal(other.estimate, one.estimate);
  assert.notEqual(other.low, one.low);
  assert.ok(one.low <= one.estimate && one.estimate <= one.high);
  assert.equal(one.units, data.length);
  assert.equal(one.valid, 500);
});

test("cluster resampling by session widens the interval when cuts of a session are correlated", () => {
  const data = pairs(11);
  const passRate = (sample: readonly Pair[]) => sample.reduce((s, p) => s + p.a, 0) / sample.length;
  const byCut = pairedBootstrap(data, passRate, { seed: 1, iterations: 1_000 });
  const bySession = pairedBootstrap(data, passRate, { seed: 1, iterations: 1_000, cluster: (p) => p.session });
  assert.equal(bySession.units, 40);
  const byList = pairedBootstrap(data, passRate, { seed: 1, iterations: 1_000, clusters: data.map((p) => p.session) });
  assert.deepEqual(byList, bySession, "a cluster list is the same as a cluster function");
  assert.throws(() => pairedBootstrap(data, passRate, { seed: 1, clusters: ["s0"] }), RangeError);
  assert.equal(bySession.estimate, byCut.estimate);
  assert.ok(bySession.high - bySession.low > 1.3 * (byCut.high - byCut.low), `${bySession.high - bySession.low} vs ${byCut.high - byCut.low}`);
});

test("coverage sanity: the percentile interval of a proportion covers the truth about 95 % of the time", () => {
  const truth = 0.8;
  const rng = new Rng(2024);
  let covered = 0;
  const trials = 200;
  for (let t = 0; t < trials; t++) {
    const sample = Array.from({ length: 120 }, () => (rng.chance(truth) ? 1 : 0));
    const r = pairedBootstrap(sample, (s) => s.reduce<number>((a, x) => a + x, 0) / s.length, { seed: t, iterations: 400 });
    if (r.low <= truth && truth <= r.high) covered++;
  }
  const rate = wilson(covered, trials);
  assert.ok(rate.low < 0.95 && rate.high > 0.88, `coverage ${covered}/${trials}`);
});

test("edge cases: one cluster → zero-width interval; no units → NaN interval; non-finite replicates are dropped", () => {
  const single = pairedBootstrap(
    [
      { a: 1, b: 0 },
      { a: 0, b: 0 },
    ],
    meanDifference,
    { seed: 3, iterations: 50, cluster: () => "only" },
  );
  assert.equal(single.low, single.estimate);
  assert.equal(single.high, single.estimate);
  assert.equal(single.units, 1);
  const empty = pairedBootstrap([], meanDifference, { seed: 3, iterations: 50 });
  assert.ok(Number.isNaN(empty.estimate) && Number.isNaN(empty.low) && Number.isNaN(empty.se));
  const ratio = pairedBootstrap([0, 0, 1], (s) => s.reduce((a, x) => a + x, 0) / s.filter((x) => x === 1).length, { seed: 5, iterations: 300 });
  assert.ok(ratio.valid < 300 && ratio.valid > 0);
  assert.throws(() => pairedBootstrap([1], () => 1, { seed: 1, iterations: 0 }), RangeError);
  assert.throws(() => pairedBootstrap([1], () => 1, { seed: -1 }), RangeError);
});

test("cluster bootstrap mean: pooled mean over observations, clusters as units", () => {
  const obs = [
    ...Array.from({ length: 10 }, (_, i) => ({ cluster: "acct-a", value: 100 + i })),
    ...Array.from({ length: 2 }, () => ({ cluster: "acct-b", value: 10 })),
    { cluster: "acct-c", value: 50 },
  ];
  const r = clusterBootstrapMean(obs, { seed: 9, iterations: 400 });
  assert.equal(r.units, 3);
  assert.ok(Math.abs(r.estimate - (1_045 + 20 + 50) / 13) < 1e-12);
  assert.ok(r.low < r.estimate && r.estimate < r.high);
});

test("two-arm cluster comparison reports the relative reduction (online A/B input tokens)", () => {
  const rng = new Rng(77);
  const arm = (prefix: string, scale: number) =>
    Array.from({ length: 30 }, (_, a) => {
      const level = 8_000 + rng.next() * 4_000;
      return Array.from({ length: 20 }, () => ({ cluster: `${prefix}${a}`, value: scale * level * (0.8 + rng.next() * 0.4) }));
    }).flat();
  const r = clusterBootstrapMeanDiff(arm("t", 0.87), arm("c", 1), { seed: 1, iterations: 600 });
  assert.ok(r.relative.estimate < -0.05 && r.relative.estimate > -0.25, String(r.relative.estimate));
  assert.ok(r.relative.low < r.relative.estimate && r.relative.high > r.relative.estimate);
  assert.ok(r.diff.high < 0, "a 13 % reduction over 30 accounts per arm is clearly below zero");
  const none = clusterBootstrapMeanDiff([], arm("c", 1), { seed: 1, iterations: 10 });
  assert.ok(Number.isNaN(none.diff.estimate) && Number.isNaN(none.diff.low));
});
