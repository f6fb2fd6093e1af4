import assert from "node:assert/strict";
import { test } from "node:test";
import { codexPolicy as policy } from "../../../../../lib/compaction/policies/summary/codex";
import { fires, origins, prefixTokens, recordingSummarizer, run, session, text, tokenizer } from "./fixtures";

// u0 503 · u1 30,003 · u2 10,003 · u3 (latest) 2,003 tokens; one 12,003-token tool output.
const s = session([
  ["system", "sys"],
  ["user", text(500)],
  ["assistant", "a"],
  ["user", `${text(15_000, "h")}${text(15_000, "t")}`],
  ["call", "c1", "Bash", '{"command":"make"}'],
  ["result", "c1", text(12_000, "o")],
  ["assistant", text(50)],
  ["user", text(10_000)],
  ["assistant", "ok"],
  ["user", text(2_000)],
  ["call", "c2", "Bash"],
  ["result", "c2", "x"],
]);

test("rebuild: system, newest user messages within 20K (the first that does not fit truncated), then the summary", async () => {
  const result = await run(policy, s);
  // u3 + u2 = 12,006 fit; u1 is cut to the remaining 7,994 tokens and ends the walk; u0 is dropped.
  assert.deepEqual(origins(result), [0, 3, 7, "summary", 9, 10, 11]);
  assert.equal(result.tailStart, 3);
  const u1 = result.view.find((v) => v.origin === 3)!;
  const part = u1.parts[0]!;
  assert.equal(part.action, "truncate");
  const cut = part.type === "text" ? part.text : "";
  assert.ok(cut.startsWith("hhhh") && cut.endsWith("tttt") && cut.includes("tokens truncated"));
  assert.ok(3 + tokenizer.count(cut) <= 20_000 - 2_003 - 10_003, "within the remaining budget");
  const truncate = result.actions.find((a) => a.action === "truncate")!;
  assert.equal(truncate.rule, "codex/user-message-truncated");
  assert.equal(truncate.target, "conversation:user:2");
});

test("assistant messages and tool calls/outputs are dropped; every collapsed object is recorded", async () => {
  const result = await run(policy, s);
  const summarized = result.actions.filter((a) => a.action === "summarize");
  assert.deepEqual(
    summarized.map((a) => a.target),
    ["conversation:user:1", "conversation:user:2", "function:exec:1", "conversation:user:3"],
  );
  assert.ok(summarized.every((a) => a.rule === "codex/user-message-budget"));
});

test("the summary is a user message with the summary prefix; the summarizer reads the whole history with tool outputs capped at 10K tokens", async () => {
  const summarizer = recordingSummarizer("the handoff");
  const result = await run(policy, s, { summarizer });
  assert.ok(result.summary!.startsWith("Another model worked on this task before you"));
  assert.ok(result.summary!.endsWith("\nthe handoff"));
  const request = summarizer.requests[0]!;
  assert.equal(request.messages.length, s.messages.length);
  const output = request.messages[5]!.parts[0]!;
  assert.ok(output.type === "tool_result" && tokenizer.count(output.content) <= 10_000 && output.content.includes("tokens truncated"));
  assert.ok(request.maxTokens < 2_000, "the prefix's tokens come out of the summary cap");
});

test("trigger: 90% of the window, pre-turn or mid-turn when the model must follow up", () => {
  const at = (cut: number, share: number) => Math.floor(prefixTokens(s, cut) / share);
  assert.equal(fires(policy, s, at(12, 0.9)), true, "tool output pending (needs_follow_up)");
  assert.equal(fires(policy, s, Math.ceil(prefixTokens(s) / 0.89)), false, "under 90%");
  assert.equal(fires(policy, s, at(10, 0.95), 10), true, "a new user message is pending (pre-turn)");
  assert.equal(fires(policy, s, at(9, 0.95), 9), false, "the turn ended: nothing pending");
});
