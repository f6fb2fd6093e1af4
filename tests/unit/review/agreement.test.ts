import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  abRatings,
  AB_PREFERENCES,
  calibrateWithReviewers,
  consensusVerdicts,
  interReviewerAgreement,
  judgeVersusHuman,
  noImpactRates,
  type HumanVerdict,
  type JudgedCut,
  type Rating,
  type ReviewLabel,
} from "../../../lib/review";
import { ab } from "./labels";

const close = (a: number, b: number, eps = 1e-4) => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

describe("inter-reviewer agreement", () => {
  test("two reviewers: Cohen's κ on the textbook 50-unit table is 0.4, percent agreement 0.7", () => {
    const cells: [string, string, number][] = [
      ["y", "y", 20],
      ["y", "n", 5],
      ["n", "y", 10],
      ["n", "n", 15],
    ];
    const ratings: Rating<string>[] = [];
    let unit = 0;
    for (const [a, b, n] of cells)
      for (let i = 0; i < n; i++, unit++) ratings.push({ unit: `u${unit}`, reviewer: "ann", value: a }, { unit: `u${unit}`, reviewer: "bob", value: b });
    ratings.push({ unit: "solo", reviewer: "ann", value: "y" });
    const r = interReviewerAgreement(ratings, ["y", "n"]);
    assert.equal(r.method, "cohen");
    assert.equal(r.units, 50);
    close(r.kappa!.kappa, 0.4, 1e-12);
    close(r.percent.rate, 0.7, 1e-12);
    assert.ok(r.percent.low < 0.7 && r.percent.high > 0.7 && r.kappa!.low < 0.4 && r.kappa!.high > 0.4);
  });

  test("many reviewers: Fleiss' κ on the 10 × 14 textbook example is 0.2099", () => {
    const table = [
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
    const categories = ["c1", "c2", "c3", "c4", "c5"];
    const ratings = table.flatMap((row, u) =>
      row.flatMap((n, c) => Array.from({ length: n }, () => categories[c]!)).map((value, r) => ({ unit: `u${u}`, reviewer: `r${r}`, value })),
    );
    ratings.push({ unit: "u-pair", reviewer: "r0", value: "c1" }, { unit: "u-pair", reviewer: "r1", value: "c1" });
    const r = interReviewerAgreement(ratings, categories);
    assert.equal(r.method, "fleiss");
    assert.deepEqual([r.units, r.excluded], [10, 1]);
    close(r.kappa!.kappa, 0.209931);
    assert.equal(r.percent.successes, 1);
  });

  test("no unit labeled twice → no κ; a reviewer rating a unit twice is an error", () => {
    assert.equal(interReviewerAgreement([{ unit: "u", reviewer: "a", value: true }], [true, false]).method, "none");
    assert.throws(
      () =>
        interReviewerAgreement(
          [
            { unit: "u", reviewer: "a", value: true },
            { unit: "u", reviewer: "a", value: false },
          ],
          [true, false],
        ),
      /rated u twice/,
    );
  });

  test("A/B answers are compared in policy terms, whatever sides each reviewer saw", () => {
    const sawSwapped = ab("b", "bob", { sides: { A: "oldest-turn", B: "self-gc", swapped: true }, verdict: "B_better" });
    const r = interReviewerAgreement(abRatings([ab("a", "ann"), sawSwapped]), AB_PREFERENCES);
    assert.equal(r.percent.successes, 1);
  });
});

const human = (reviewer: string, policy: string, cut: number, noImpact: boolean): HumanVerdict => ({
  reviewer,
  sessionId: "s",
  cut,
  policy,
  noImpact,
  needed: [],
  rejected: 0,
  unreviewed: 0,
});
const judged = (judge: string, policy: string, cut: number, noImpact: boolean): JudgedCut => ({ sessionId: "s", cut, policy, judge, noImpact });

describe("judges against human verdicts", () => {
  // Humans: cuts 1–4 no-impact, 5–8 impacted, 9 split. Dependency judge right on 7 of 8; LLM on 4.
  const people = [
    ...[1, 2, 3, 4].map((c) => human("ann", "p", c, true)),
    ...[5, 6, 7, 8].map((c) => human("ann", "p", c, false)),
    human("ann", "p", 9, true),
    human("bob", "p", 9, false),
  ];
  const reference = consensusVerdicts(people);
  const rows = [
    ...[1, 2, 3, 4, 5, 6, 7].map((c) => judged("dependency", "p", c, c <= 4)),
    judged("dependency", "p", 8, true),
    judged("dependency", "p", 9, true),
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((c) => judged("llm:m", "p", c, true)),
    judged("dependency", "p", 10, true),
  ];

  test("confusion matrix (rows human, columns judge), κ and accuracy with Wilson intervals; split cuts are undecided", () => {
    const [dep, llm] = judgeVersusHuman(rows, reference);
    assert.deepEqual(
      [dep!.judge, dep!.n, dep!.undecided, dep!.matrix.counts],
      [
        "dependency",
        8,
        1,
        [
          [4, 0],
          [1, 3],
        ],
      ],
    );
    close(dep!.accuracy.rate, 7 / 8, 1e-12);
    close(dep!.kappa.kappa, 0.75, 1e-12);
    close(dep!.sensitivity.rate, 0.75, 1e-12);
    assert.deepEqual(llm!.matrix.counts, [
      [4, 0],
      [4, 0],
    ]);
    close(llm!.kappa.kappa, 0, 1e-12);
  });

  test("no-impact per policy: the judge on all cuts, on the reviewed cuts, and the humans on those", () => {
    const [p] = noImpactRates(rows, reference, "dependency");
    assert.deepEqual(
      [p!.policy, p!.judge.successes, p!.judge.n, p!.judgeOnReviewed.successes, p!.judgeOnReviewed.n, p!.human.successes, p!.human.n],
      ["p", 7, 10, 5, 8, 4, 8],
    );
  });
});

describe("A/B calibration from reviewer labels", () => {
  test("reproduces seed 000's 92.77 % for Self-GC from 20 human-audited disagreements with randomised sides", () => {
    // n = 332: 287 both pass, 20 only Self-GC, 11 only oldest-turn, 14 neither → raw 307 and 298.
    const rows: JudgedCut[] = [];
    const verdicts: [boolean, boolean][] = [
      ...Array(287).fill([true, true]),
      ...Array(20).fill([true, false]),
      ...Array(11).fill([false, true]),
      ...Array(14).fill([false, false]),
    ];
    verdicts.forEach(([a, b], cut) => rows.push(judged("llm:m", "self-gc", cut, a), judged("llm:m", "oldest-turn", cut, b)));
    // Audit 10 cuts of each direction: Self-GC better 11, tie 7, baseline better 2 (seed 000).
    const audited = [...Array.from({ length: 10 }, (_, i) => 287 + i), ...Array.from({ length: 10 }, (_, i) => 307 + i)];
    const outcomes = [...Array(11).fill("self-gc"), ...Array(7).fill("tie"), ...Array(2).fill("oldest-turn")] as string[];
    const labels: ReviewLabel[] = audited.map((cut, i) => {
      const swapped = i % 2 === 1;
      const sides = swapped ? { A: "oldest-turn", B: "self-gc", swapped } : { A: "self-gc", B: "oldest-turn", swapped };
      const verdict = outcomes[i] === "tie" ? "tie" : outcomes[i] === sides.A ? "A_better" : "B_better";
      return ab(`l${i}`, "ann", { ref: { sessionId: "s", cut }, sides, verdict });
    });
    const r = calibrateWithReviewers(rows, "llm:m", "self-gc", "oldest-turn", labels);
    assert.equal(r.audited.total, 20);
    close(100 * r.raw.a.rate, 92.47, 0.01);
    close(100 * r.calibrated.a.rate, 92.77, 0.01);
    close(100 * r.calibrated.a.low, 89.47, 0.01);
    close(100 * r.calibrated.a.high, 95.09, 0.01);
    assert.equal(r.calibrated.b.successes, 290);
  });

  test("an even split between reviewers leaves the case unaudited", () => {
    const rows = [judged("d", "x", 1, true), judged("d", "y", 1, false)];
    const split = [
      ab("a", "ann", { ref: { sessionId: "s", cut: 1 }, sides: { A: "x", B: "y", swapped: false }, verdict: "B_better" }),
      ab("b", "bob", { ref: { sessionId: "s", cut: 1 }, sides: { A: "x", B: "y", swapped: false }, verdict: "tie" }),
    ];
    assert.equal(calibrateWithReviewers(rows, "d", "x", "y", split).audited.total, 0);
    assert.equal(calibrateWithReviewers(rows, "d", "x", "y", split.slice(0, 1)).calibrated.a.successes, 0);
  });
});
