import assert from "node:assert/strict";
import { test } from "node:test";
import { preserveUserMessagesPolicy as policy } from "../../../../../lib/compaction/policies/summary/preserve-user-messages";
import { fires, origins, prefixTokens, recordingSummarizer, run, seen, session, text } from "./fixtures";

// u1 15,003 · u2 8,003 · u3 5,003 · u4 (latest) 1,003 tokens.
const s = session([
  ["system", "sys"],
  ["user", text(15_000, "a")],
  ["call", "c1", "Bash", '{"command":"ls"}'],
  ["result", "c1", "out1"],
  ["assistant", "done1"],
  ["user", text(8_000, "b")],
  ["call", "c2", "Read"],
  ["result", "c2", "out2"],
  ["user", text(5_000, "c")],
  ["assistant", "ok"],
  ["user", text(1_000, "d")],
  ["call", "c4", "Bash"],
  ["result", "c4", "out4"],
]);

test("keeps user messages newest-first within 20K, chronologically; the first that does not fit ends the walk", async () => {
  const summarizer = recordingSummarizer();
  const result = await run(policy, s, { summarizer });
  // u4 + u3 + u2 = 14,009 fits; u1 (15,003 more) does not, and nothing older is considered.
  assert.deepEqual(origins(result), [0, 5, 8, "summary", 10, 11, 12]);
  assert.equal(result.tailStart, 5, "tail-start pointer = first kept user message");
  assert.equal(result.summary, "SUMMARY");
});

test("the summary sits right after the last kept user message before the protected latest turn", async () => {
  const result = await run(policy, s);
  const at = result.view.findIndex((v) => v.origin === "summary");
  assert.equal(result.view[at - 1]!.origin, 8);
  assert.equal(result.view[at + 1]!.origin, 10);
});

test("the summarizer reads the collapsed messages with maxTokens = the summary cap", async () => {
  const summarizer = recordingSummarizer();
  await run(policy, s, { summarizer, summaryCap: 1_500 });
  const [request] = summarizer.requests;
  assert.equal(request!.maxTokens, 1_500);
  assert.deepEqual(
    seen(request!).map((x) => x.split(":")[0]),
    ["user", "assistant", "tool", "assistant", "assistant", "tool", "assistant"],
  );
});

test("one summarize action per collapsed object, with the policy's rule", async () => {
  const result = await run(policy, s);
  assert.deepEqual(
    result.actions.map((a) => a.target),
    ["conversation:user:1", "function:exec:1", "conversation:user:2", "function:read:1", "conversation:user:3"],
  );
  assert.ok(result.actions.every((a) => a.action === "summarize" && a.rule === "preserve-user-messages/outside-user-budget" && a.tokensAfter === 0));
  assert.equal(result.actions.find((a) => a.target === "conversation:user:1")!.tokensBefore > 15_000, true);
});

test("userTokenBudget changes the cap: 6,006 keeps only u3 and u4", async () => {
  const result = await run(policy, s, { params: { userTokenBudget: 6_006 } });
  assert.deepEqual(origins(result), [0, 8, "summary", 10, 11, 12]);
  assert.equal(result.tailStart, 8);
});

test("seed 001 headroom trigger: 20K of slack over 200K windows, 20% below", () => {
  const prefix = prefixTokens(s);
  assert.equal(fires(policy, s, prefix + 20_000), false, "a window under 200K needs ≤ 20% headroom");
  assert.equal(fires(policy, s, Math.floor(prefix / 0.8)), true);
  assert.equal(fires(policy, s, Math.ceil(prefix / 0.79)), false);
  const big = session([
    ["user", text(190_000)],
    ["assistant", "ok"],
  ]);
  const bigPrefix = prefixTokens(big);
  assert.equal(fires(policy, big, bigPrefix + 20_000), true, "≤ 20K left of a window over 200K");
  assert.equal(fires(policy, big, bigPrefix + 20_001), false);
});
