import assert from "node:assert/strict";
import { test } from "node:test";
import { CLEARED_PLACEHOLDER } from "../../../../../lib/compaction/policies/pretrim/mark-old-tool-outputs-cleared";
import { opencodePolicy as policy } from "../../../../../lib/compaction/policies/summary/opencode";
import { fires, origins, prefixTokens, recordingSummarizer, run, seen, session, text } from "./fixtures";

// Turn 2 (messages 3–8) is 8,722 tokens: with the latest turn (206) it overflows the 8,000 tail budget.
const s = session([
  ["system", "sys"],
  ["user", text(100)],
  ["assistant", text(3_000)],
  ["user", text(100)],
  ["call", "c1", "Read"],
  ["result", "c1", text(7_000)],
  ["call", "c2", "Bash"],
  ["result", "c2", text(1_500)],
  ["assistant", text(100)],
  ["user", text(100)],
  ["assistant", text(100)],
]);

test("tail: whole newest turns within clamp(25% usable, 2K, 8K); the next turn keeps its longest fitting suffix", async () => {
  const result = await run(policy, s);
  assert.ok(result.log.some((l) => l.includes("tail budget 8000")));
  // Suffixes of turn 2: from 4 = 8,619 (too big), 5 splits c1 from its call, from 6 = 1,611 fits.
  assert.ok(result.log.some((l) => l.includes("kept its suffix from message 6")));
  assert.deepEqual(origins(result), [0, "summary", 6, 7, 8, 9, 10]);
  assert.equal(result.tailStart, 6);
  assert.ok(result.actions.every((a) => a.rule === "opencode/head"));
});

test("maxPreserveTokens 15,000 (the later upstream value) keeps the whole turn", async () => {
  const result = await run(policy, s, { params: { maxPreserveTokens: 15_000 } });
  assert.deepEqual(origins(result), [0, "summary", 3, 4, 5, 6, 7, 8, 9, 10]);
});

const heavy = session([
  ["system", "sys"],
  ["user", "analyse the logs"],
  ["call", "c1", "Read"],
  ["result", "c1", text(30_000, "a")],
  ["call", "c2", "Read"],
  ["result", "c2", text(30_000, "b")],
  ["call", "c3", "Read"],
  ["result", "c3", text(25_000, "c")],
  ["assistant", "read them"],
  ["user", text(10)],
  ["assistant", "ok"],
  ["user", text(10)],
  ["assistant", "ok"],
]);

test("prune: past the 2 newest turns, outputs beyond 40K protected tokens are cleared when over the 20K minimum", async () => {
  const summarizer = recordingSummarizer();
  const result = await run(policy, heavy, { summarizer });
  assert.ok(result.log.some((l) => l.includes("2 tool outputs (60000 tokens) past the 40000-token protect window cleared")));
  const input = seen(summarizer.requests[0]!);
  assert.equal(input[2], `tool:${CLEARED_PLACEHOLDER}`);
  assert.equal(input[4], `tool:${CLEARED_PLACEHOLDER}`);
  // The newest 25,000 tokens stay within the protect window, serialised at 2,000 chars.
  const c3 = summarizer.requests[0]!.messages[6]!.parts[0]!;
  assert.ok(c3.type === "tool_result" && c3.content.length === 2_000 + "\n[truncated]".length && c3.content.endsWith("[truncated]"));
  assert.equal(result.sidecars.length, 2, "cleared originals stay recoverable");
});

test("prune = false leaves the outputs for the 2,000-char serialisation only", async () => {
  const summarizer = recordingSummarizer();
  await run(policy, heavy, { summarizer, params: { prune: false } });
  assert.ok(seen(summarizer.requests[0]!).every((m) => !m.includes(CLEARED_PLACEHOLDER)));
});

test("overflow trigger: usage ≥ window − maxOutputTokens − min(20,000, maxOutputTokens)", () => {
  const prefix = prefixTokens(s);
  assert.equal(fires(policy, s, prefix + 52_000), true);
  assert.equal(fires(policy, s, prefix + 52_001), false);
  assert.equal(fires(policy, s, prefix + 8_000, s.messages.length, { maxOutputTokens: 4_000 }), true, "reserved = min(20K, 4K)");
});
