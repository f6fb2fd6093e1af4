import assert from "node:assert/strict";
import { test } from "node:test";
import type { EvaluationRecord } from "../../../lib/evaluation/aggregate/aggregate";
import { aggregateMatched, sameViewSize, SIZE_MATCH_TOLERANCE } from "../../../lib/evaluation/aggregate/matched";
import { budgetKey } from "../../../lib/evaluation/cuts/budget";

const MATCH = budgetKey({ kind: "match", reference: "ref" });

/** A matched record of `policy` at cut `cut` of session `s`: a 1,000-token prefix compacted to `after`. */
function record(policy: string, s: string, cut: number, after: number, visible: boolean): EvaluationRecord {
  return {
    policy,
    sessionId: s,
    cut,
    prefixTokens: 1_000,
    tokensAfter: after,
    pruneRate: 1 - after / 1_000,
    noImpact: true,
    visibleNoImpact: visible,
    restorableNoImpact: true,
    missingByCategory: {},
    budget: MATCH,
  };
}

test("two views are the same size within 5% of the prefix, either way", () => {
  assert.equal(SIZE_MATCH_TOLERANCE, 0.05);
  assert.equal(sameViewSize({ tokensAfter: 650, prefixTokens: 1_000 }, { tokensAfter: 600 }), true);
  assert.equal(sameViewSize({ tokensAfter: 550, prefixTokens: 1_000 }, { tokensAfter: 600 }), true);
  assert.equal(sameViewSize({ tokensAfter: 651, prefixTokens: 1_000 }, { tokensAfter: 600 }), false);
  assert.equal(sameViewSize({ tokensAfter: 549, prefixTokens: 1_000 }, { tokensAfter: 600 }), false);
});

test("the size-matched difference leaves out cuts where the policy overshot or stopped short, and cuts where the reference stayed pending", () => {
  // Five cuts of five sessions. The reference keeps everything visible at each; the policy loses
  // visibility at the two cuts where it overshot the size (removed far more) and at the one where it
  // matched it. Cut 4: the reference stayed pending (both views are the prefix, a tie). Cut 5: the
  // policy stopped short (kept more) and kept everything visible.
  const records = [
    record("ref", "a", 1, 600, true),
    record("pol", "a", 1, 300, false),
    record("ref", "b", 1, 600, true),
    record("pol", "b", 1, 200, false),
    record("ref", "c", 1, 600, true),
    record("pol", "c", 1, 620, false),
    record("ref", "d", 1, 1_000, true),
    record("pol", "d", 1, 1_000, true),
    record("ref", "e", 1, 600, true),
    record("pol", "e", 1, 900, true),
    record("ref", "f", 1, 500, true),
    record("pol", "f", 1, 480, true),
  ];
  const matched = aggregateMatched(records, "ref", ["ref", "pol"], 200);
  const visible = matched.paired.find((d) => d.policy === "pol" && d.metric === "visibleNoImpact")!;
  assert.equal(visible.pairs, 6);
  assert.equal(visible.diffPts, 50, "over every cut: 3 of 6 lost by the policy only");
  assert.equal(visible.sizeMatched?.pairs, 2, "cuts c and f: the reference compacted and the sizes match");
  assert.equal(visible.sizeMatched?.diffPts, 50, "one of the two lost by the policy only");
  const headline = matched.paired.find((d) => d.policy === "pol" && d.metric === "noImpact")!;
  assert.deepEqual([headline.sizeMatched?.pairs, headline.sizeMatched?.diffPts], [2, 0]);
  // No cut at the same size: null, not a zero difference.
  const apart = aggregateMatched([record("ref", "a", 1, 600, true), record("pol", "a", 1, 100, false)], "ref", ["ref", "pol"], 50);
  assert.equal(apart.paired.find((d) => d.metric === "visibleNoImpact")!.sizeMatched, null);
});
