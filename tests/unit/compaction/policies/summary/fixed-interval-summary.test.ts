import assert from "node:assert/strict";
import { test } from "node:test";
import { fixedIntervalSummaryPolicy as policy } from "../../../../../lib/compaction/policies/summary/fixed-interval-summary";
import type { Spec } from "./fixtures";
import { fires, origins, prefixTokens, recordingSummarizer, run, seen, session, text } from "./fixtures";

const s = session([
  ["system", "sys"],
  ["user", text(500)],
  ["call", "c1", "Read"],
  ["result", "c1", text(2_000)],
  ["assistant", text(100)],
  ["user", text(50)],
  ["call", "c2", "Bash"],
  ["result", "c2", text(100)],
]);

const atPercent: [number, boolean][] = [
  [29, false],
  [30, true],
  [50, true],
];
for (const [percent, expected] of atPercent) {
  test(`fires at 30% of the window: prefix at ${percent}% → ${expected}`, () => {
    const window = expected ? Math.floor((prefixTokens(s) * 100) / percent) : Math.ceil((prefixTokens(s) * 100) / percent);
    assert.equal(fires(policy, s, window), expected);
  });
}

test("triggerRatio moves the threshold", () => {
  assert.equal(fires(policy, s, Math.floor((prefixTokens(s) * 100) / 29), s.messages.length, { triggerRatio: 0.25 }), true);
});

test("summarizes everything but the latest turn", async () => {
  const summarizer = recordingSummarizer();
  const result = await run(policy, s, { summarizer, window: Math.floor(prefixTokens(s) / 0.3) });
  assert.deepEqual(origins(result), [0, "summary", 5, 6, 7]);
  assert.equal(result.tailStart, 5);
  assert.deepEqual(
    seen(summarizer.requests[0]!).map((x) => x.split(":")[0]),
    ["user", "assistant", "tool", "assistant"],
  );
  assert.ok(result.actions.every((a) => a.rule === "fixed-interval-summary/before-latest-turn"));
});

test("in a long single-task run the latest turn is its newest steps: the request stays, the middle is summarized", async () => {
  const steps: Spec[] = [];
  for (let i = 1; i <= 6; i++) steps.push(["call", `c${i}`, "Bash"], ["result", `c${i}`, text(500)]);
  const run1 = session([["system", "sys"], ["user", text(20)], ...steps]);
  const result = await run(policy, run1);
  // Protected: the request (1) and the last two steps (10–13).
  assert.deepEqual(origins(result), [0, "summary", 1, 10, 11, 12, 13]);
  assert.equal(result.tailStart, 10);
});
