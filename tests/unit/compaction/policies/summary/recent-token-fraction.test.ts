import assert from "node:assert/strict";
import { test } from "node:test";
import { recentTokenFractionPolicy as policy } from "../../../../../lib/compaction/policies/summary/recent-token-fraction";
import type { Spec } from "./fixtures";
import { origins, recordingSummarizer, run, seen, session, text } from "./fixtures";

// Prefix 5,428 tokens; 30% = 1,628.4 is reached inside turn 2 (message 4).
const turns = session([
  ["system", "sys"],
  ["user", text(100)],
  ["assistant", text(3_000)],
  ["user", text(100)],
  ["assistant", text(1_000)],
  ["user", text(100)],
  ["assistant", text(800)],
  ["user", text(100)],
  ["assistant", text(200)],
]);

test("walks back to 30% of the prefix tokens, then snaps forward to the next user-message boundary", async () => {
  const result = await run(policy, turns);
  assert.ok(result.log.some((l) => l.includes("reached at message 4")));
  assert.ok(result.log.some((l) => l.includes("snapped to the next user-message boundary, message 5")));
  assert.deepEqual(origins(result), [0, "summary", 5, 6, 7, 8]);
  assert.equal(result.tailStart, 5, "tail-start pointer = first message of the recent fraction");
});

test("a larger p keeps more: p = 0.6 snaps to the boundary of turn 2", async () => {
  const result = await run(policy, turns, { params: { keepFraction: 0.6 } });
  assert.deepEqual(origins(result), [0, "summary", 3, 4, 5, 6, 7, 8]);
});

// One request, ten call/result steps of 1,008 tokens: the whole session is one long turn.
const steps: Spec[] = [];
for (let i = 1; i <= 10; i++) steps.push(["call", `c${i}`, "Bash", "{}"], ["result", `c${i}`, text(1_000)]);
const longRun = session([["system", "sys"], ["user", text(50)], ...steps]);

test("a long single-task run has no user boundary inside: snaps to the nearest safe step boundary and logs it", async () => {
  const summarizer = recordingSummarizer();
  const result = await run(policy, longRun, { summarizer });
  // 30% is reached at message 15 (a tool result); the nearest step boundaries are 14 and 16: the earlier wins.
  assert.ok(result.log.some((l) => l.includes("no user-message boundary inside the recent fraction") && l.includes("message 14")));
  assert.equal(result.tailStart, 14);
  assert.deepEqual(origins(result), [0, "summary", 1, ...Array.from({ length: 8 }, (_, i) => 14 + i)]);
  assert.equal(seen(summarizer.requests[0]!).length, 12, "messages 2..13 are summarized; the request itself stays");
});

test("the tail never separates a tool call from its result", async () => {
  const result = await run(policy, longRun);
  const calls = new Set<string>();
  for (const m of result.view)
    for (const p of m.parts) {
      if (p.type === "tool_call") calls.add(p.id);
      if (p.type === "tool_result") assert.ok(calls.has(p.callId), `result ${p.callId} without its call`);
    }
  assert.equal(result.rejected.length, 0);
});
