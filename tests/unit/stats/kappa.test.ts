import assert from "node:assert/strict";
import { test } from "node:test";
import { cohenKappa, fleissKappa, pairedBootstrap, ratingCounts } from "../../../lib/stats";
import { Rng } from "../../../lib/scenario/prng";

const close = (a: number, b: number, eps = 1e-4) => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

test("Cohen's κ: the textbook 50-proposal example gives p_o 0.7, p_e 0.5, κ 0.4", () => {
  const k = cohenKappa([
    [20, 5],
    [10, 15],
  ]);
  close(k.observed, 0.7, 1e-12);
  close(k.expected, 0.5, 1e-12);
  close(k.kappa, 0.4, 1e-12);
  assert.ok(k.low < 0.4 && k.high > 0.4);
});

test("Cohen's κ: equal raw agreement, different marginals → different κ (0.1304 vs 0.2593)", () => {
  close(
    cohenKappa([
      [45, 15],
      [25, 15],
    ]).kappa,
    0.1304,
  );
  close(
    cohenKappa([
      [25, 35],
      [5, 35],
    ]).kappa,
    0.2593,
  );
});

test("Cohen's κ: perfect agreement is 1, systematic disagreement is negative", () => {
  assert.equal(
    cohenKappa([
      [10, 0],
      [0, 5],
    ]).kappa,
    1,
  );
  assert.ok(
    cohenKappa([
      [0, 10],
      [10, 0],
    ]).kappa < 0,
  );
});

test("Cohen's κ edge cases: one shared category → undefined (NaN) despite p_o = 1; empty → NaN; ragged → RangeError", () => {
  const same = cohenKappa([
    [12, 0],
    [0, 0],
  ]);
  assert.equal(same.observed, 1);
  assert.ok(Number.isNaN(same.kappa));
  assert.ok(
    Number.isNaN(
      cohenKappa([
        [0, 0],
        [0, 0],
      ]).kappa,
    ),
  );
  assert.throws(() => cohenKappa([[1, 2], [3]]), RangeError);
  assert.throws(
    () =>
      cohenKappa([
        [1, -2],
        [3, 4],
      ]),
    RangeError,
  );
});

test("Cohen's κ standard error agrees with a bootstrap over units", () => {
  const rng = new Rng(5);
  const units = Array.from({ length: 300 }, () => {
    const truth = rng.chance(0.6);
    return [truth ? (rng.chance(0.85) ? 1 : 0) : rng.chance(0.2) ? 1 : 0, truth ? (rng.chance(0.8) ? 1 : 0) : rng.chance(0.15) ? 1 : 0] as const;
  });
  const table = (sample: readonly (readonly [number, number])[]) => {
    const t = [
      [0, 0],
      [0, 0],
    ];
    for (const [a, b] of sample) t[a]![b]! += 1;
    return t;
  };
  const analytic = cohenKappa(table(units));
  const boot = pairedBootstrap(units, (s) => cohenKappa(table(s)).kappa, { seed: 8, iterations: 800 });
  assert.ok(Math.abs(analytic.se / boot.se - 1) < 0.15, `analytic ${analytic.se} vs bootstrap ${boot.se}`);
});

const WIKI_FLEISS = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

test("Fleiss' κ: the 10 subjects × 14 raters textbook example gives P̄ 0.378, P̄_e 0.213, κ 0.210", () => {
  const k = fleissKappa(WIKI_FLEISS);
  close(k.observed, 0.378022);
  close(k.expected, 0.212755);
  close(k.kappa, 0.209931);
  assert.equal(k.n, 10);
  assert.ok(k.se > 0);
});

test("Fleiss' κ with two raters is close to Cohen's κ (they differ only in how chance is pooled)", () => {
  const pairs: [string, string][] = [...Array(20).fill(["y", "y"]), ...Array(5).fill(["y", "n"]), ...Array(10).fill(["n", "y"]), ...Array(15).fill(["n", "n"])];
  const fleiss = fleissKappa(ratingCounts(pairs, ["y", "n"]));
  close(fleiss.kappa, 0.3939, 1e-3);
});

test("Fleiss' κ edge cases: unequal rater counts and single raters are refused; all-one-category is NaN; unknown labels are refused", () => {
  assert.throws(
    () =>
      fleissKappa([
        [2, 1],
        [1, 1],
      ]),
    RangeError,
  );
  assert.throws(
    () =>
      fleissKappa([
        [1, 0],
        [0, 1],
      ]),
    RangeError,
  );
  assert.ok(
    Number.isNaN(
      fleissKappa([
        [3, 0],
        [3, 0],
      ]).kappa,
    ),
  );
  assert.ok(Number.isNaN(fleissKappa([]).kappa));
  assert.throws(() => ratingCounts([["y", "maybe"]], ["y", "n"]), RangeError);
});
