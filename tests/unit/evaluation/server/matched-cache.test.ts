import assert from "node:assert/strict";
import { test } from "node:test";
import type { EvaluationRecord } from "../../../../lib/evaluation/aggregate/aggregate";
import { aggregateMatched } from "../../../../lib/evaluation/aggregate/matched";
import { cachedMatched, RUNNING_REFRESH_MS } from "../../../../server/evaluation/matched-cache";

const record = (policy: string, cut: number, noImpact: boolean): EvaluationRecord => ({
  policy,
  sessionId: `s${cut % 3}`,
  cut,
  prefixTokens: 100,
  tokensAfter: 60,
  pruneRate: 0.4,
  noImpact,
  visibleNoImpact: noImpact,
  restorableNoImpact: noImpact,
  missingByCategory: {},
  budget: "match-a",
});

test("the matched comparison is recomputed when the run's units change, throttled while it runs, and equals aggregateMatched", () => {
  const first = [0, 1, 2, 3].flatMap((c) => [record("a", c, true), record("b", c, c % 2 === 0)]);
  const more = [...first, record("a", 4, true), record("b", 4, false)];
  let computed = 0;
  const input = (records: EvaluationRecord[]) => () => {
    computed++;
    return { records, reference: "a", order: ["a", "b"] };
  };
  const t0 = 1_000_000;
  const v1 = cachedMatched("run-x", "running|8", true, input(first), t0);
  assert.deepEqual(v1, aggregateMatched(first, "a", ["a", "b"]));
  assert.equal(
    cachedMatched("run-x", "running|10", true, input(more), t0 + 1_000),
    v1,
    "while running, a change within the refresh period reuses the last comparison",
  );
  assert.equal(computed, 1);
  const v2 = cachedMatched("run-x", "running|10", true, input(more), t0 + RUNNING_REFRESH_MS + 1);
  assert.deepEqual(v2, aggregateMatched(more, "a", ["a", "b"]));
  assert.equal(computed, 2);
  const done = cachedMatched("run-x", "done|10", false, input(more), t0 + RUNNING_REFRESH_MS + 2);
  assert.equal(computed, 3, "a finished run is computed at once");
  assert.equal(cachedMatched("run-x", "done|10", false, input(more), t0 + 10 * RUNNING_REFRESH_MS), done, "and kept while nothing changes");
  assert.equal(computed, 3);
});
