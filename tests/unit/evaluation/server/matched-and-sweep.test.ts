import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatP, matchedSentence } from "../../../../components/evaluation/matched-sentence";
import { matchedPolicy } from "../../../../components/evaluation/harness-fields";
import { parseSweepField, sweepErrorsFromFields } from "../../../../components/evaluation/sweep-field";

describe("matchedSentence", () => {
  const base = { policy: "oldest-turn", pairs: 44, mcnemarP: 0.0312 };
  test("a positive difference (reference − policy) means the policy keeps fewer, with the same interval", () => {
    assert.equal(
      matchedSentence("self-gc", { ...base, metric: "visibleNoImpact", diffPts: 1.7, ci95: [0.8, 2.8] }),
      "at self-gc's view size, oldest-turn keeps 1.7 points fewer futures fully visible [0.8, 2.8] (McNemar p = 0.031, 44 paired cuts)",
    );
  });
  test("a negative difference means more, with the interval of policy − reference", () => {
    assert.equal(
      matchedSentence("self-gc", { ...base, metric: "noImpact", diffPts: -4.55, ci95: [-9.1, -0.4] }),
      "at self-gc's view size, oldest-turn keeps 4.5 points more futures unaffected (nothing lost) [0.4, 9.1] (McNemar p = 0.031, 44 paired cuts)",
    );
  });
  test("no difference says as many", () => {
    assert.equal(
      matchedSentence("self-gc", { ...base, pairs: 1, mcnemarP: 1, metric: "noImpact", diffPts: 0, ci95: [-2.3, 2.3] }),
      "at self-gc's view size, oldest-turn keeps as many futures unaffected (nothing lost) [-2.3, 2.3] (McNemar p = 1, 1 paired cut)",
    );
  });
  test("with cuts at the same size, the sentence adds the difference there", () => {
    assert.equal(
      matchedSentence("self-gc", {
        ...base,
        metric: "visibleNoImpact",
        diffPts: 17.8,
        ci95: [7.1, 29.8],
        sizeMatched: { pairs: 13, diffPts: 7.7, ci95: [0, 23.1], mcnemarP: 0.5 },
      }),
      "at self-gc's view size, oldest-turn keeps 17.8 points fewer futures fully visible [7.1, 29.8] (McNemar p = 0.031, 44 paired cuts); " +
        "where self-gc compacted and the two views are within 5% of the prefix of each other, it keeps 7.7 points fewer [0.0, 23.1] (McNemar p = 0.50, 13 paired cuts)",
    );
  });
  test("p-values", () => {
    assert.deepEqual([0.00004, 0.0312, 0.5, 1].map(formatP), ["< 0.001", "0.031", "0.50", "1"]);
  });
});

describe("parseSweepField (percent in, percent in the message)", () => {
  test("empty means no sweep; a valid list is parsed, spaces and % allowed", () => {
    assert.deepEqual(parseSweepField("  "), { ok: true, levels: undefined });
    assert.deepEqual(parseSweepField("20, 40%,60"), { ok: true, levels: [20, 40, 60] });
    assert.deepEqual(parseSweepField("20,40,"), { ok: true, levels: [20, 40] }, "a trailing comma while typing is no error");
  });
  test("each problem is located by budget, with its value in percent", () => {
    assert.deepEqual(parseSweepField("20,abc,0.5"), {
      ok: false,
      errors: ["budget 2: “abc” is not a whole percent", "budget 3: “0.5” is not a whole percent"],
    });
    assert.deepEqual(parseSweepField("20,120,0"), {
      ok: false,
      errors: ["budget 2 (120%): a budget is at most 95%", "budget 3 (0%): a budget is at least 1%"],
    });
    assert.deepEqual(parseSweepField("40,40"), { ok: false, errors: ["budgets must be distinct"] });
  });
  test("the server's field errors read the same way", () => {
    assert.deepEqual(sweepErrorsFromFields({ "sweep.1": ["a budget is at most 95%"], sweep: ["budgets must be distinct"], judge: ["x"] }, [20, 150]), [
      "budget 2 (150%): a budget is at most 95%",
      "budgets must be distinct",
    ]);
  });
});

describe("matchedPolicy (the new-run form's default)", () => {
  test("self-gc when chosen and nothing picked; the pick while its policy is chosen; else off", () => {
    assert.equal(matchedPolicy(undefined, ["none", "self-gc"]), "self-gc");
    assert.equal(matchedPolicy(undefined, ["none", "oldest-turn"]), "");
    assert.equal(matchedPolicy("oldest-turn", ["oldest-turn", "self-gc"]), "oldest-turn");
    assert.equal(matchedPolicy("oldest-turn", ["self-gc"]), "", "a pick whose policy was unchecked is off");
    assert.equal(matchedPolicy("", ["self-gc"]), "", "off stays off");
  });
});
