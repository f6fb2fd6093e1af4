import assert from "node:assert/strict";
import { test } from "node:test";
import { runPolicy } from "../../../../../lib/compaction/policies/run-policy";
import { selfGcPolicy } from "../../../../../lib/compaction/policies/self-gc/policy";
import { toAnthropicMessages, toOpenAiMessages } from "../../../../../lib/compaction/projection/provider";
import type { ViewMessage, ViewPart } from "../../../../../lib/compaction/projection/types";
import { allTraceCuts, traceTokenizer } from "../../planner/trace-cuts";
import { assertValidAnthropic, assertValidOpenAi } from "./provider-validators";

const msg = (role: ViewMessage["role"], ...parts: ViewPart[]): ViewMessage => ({ role, parts, origin: 0 });
const text = (t: string): ViewPart => ({ type: "text", text: t });
const call = (id: string, name = "Bash", args = '{"command":"ls"}'): ViewPart => ({ type: "tool_call", id, name, arguments: args });
const result = (callId: string, content = "ok", isError = false): ViewPart => ({ type: "tool_result", callId, content, ...(isError ? { isError } : {}) });

test("a plain exchange maps onto both providers", () => {
  const view = [
    msg("system", text("Be brief.")),
    msg("user", text("List files.")),
    msg("assistant", text("Listing."), call("c1")),
    msg("tool", result("c1", "a b", true)),
    msg("assistant", text("Two files.")),
  ];
  const openai = toOpenAiMessages(view);
  assert.deepEqual(openai, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "List files." },
    { role: "assistant", content: "Listing.", tool_calls: [{ id: "c1", type: "function", function: { name: "Bash", arguments: '{"command":"ls"}' } }] },
    { role: "tool", tool_call_id: "c1", content: "a b" },
    { role: "assistant", content: "Two files." },
  ]);
  const anthropic = toAnthropicMessages(view);
  assert.equal(anthropic.system, "Be brief.");
  assert.deepEqual(anthropic.messages, [
    { role: "user", content: [{ type: "text", text: "List files." }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Listing." },
        { type: "tool_use", id: "c1", name: "Bash", input: { command: "ls" } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "a b", is_error: true }] },
    { role: "assistant", content: [{ type: "text", text: "Two files." }] },
  ]);
});

test("an orphan result becomes text and an unanswered call is removed, each with a note", () => {
  const fixes: string[] = [];
  const view = [
    msg("user", text("go")),
    msg("tool", result("ghost", "stale output")),
    msg("assistant", call("c1"), call("c2")),
    msg("tool", result("c2")),
    msg("assistant", text("done")),
  ];
  const openai = toOpenAiMessages(view, (n) => fixes.push(n));
  assertValidOpenAi(openai);
  assert.deepEqual(fixes, ["result for ghost has no call before it and became text", "call c1 (Bash) had no result and was removed"]);
  assert.deepEqual(openai[0], { role: "user", content: "go\n\n[tool result for ghost]\nstale output" });
  assertValidAnthropic(toAnthropicMessages(view));
});

test("text that arrives while calls are open moves after their results; reused ids become unique", () => {
  const view = [
    msg("user", text("go")),
    msg("assistant", call("x")),
    msg("user", text("by the way…")),
    msg("tool", result("x", "first")),
    msg("assistant", call("x")),
    msg("tool", result("x", "second")),
    msg("assistant", text("ok")),
  ];
  const openai = toOpenAiMessages(view);
  assertValidOpenAi(openai);
  assert.deepEqual(
    openai.map((m) => (m.role === "tool" ? `tool ${m.tool_call_id} ${m.content}` : m.role)),
    ["user", "assistant", "tool x first", "user", "assistant", "tool x_2 second", "assistant"],
  );
  const anthropic = toAnthropicMessages(view);
  assertValidAnthropic(anthropic);
  assert.deepEqual(
    anthropic.messages[2]!.content.map((b) => b.type),
    ["tool_result", "text"],
    "results first, then the user's text, in one user message",
  );
});

test("Anthropic: consecutive same-role messages merge, a leading assistant gets a user placeholder, inputs are objects", () => {
  const view = [
    msg("assistant", text("hello")),
    msg("assistant", call("c.1", "Run", "not json")),
    msg("tool", result("c.1", "")),
    msg("user", text("a")),
    msg("user", text("b")),
    msg("system", text("late rule")),
  ];
  const anthropic = toAnthropicMessages(view);
  assertValidAnthropic(anthropic);
  assert.equal(anthropic.system, undefined);
  assert.deepEqual(anthropic.messages[0], { role: "user", content: [{ type: "text", text: "(conversation continues)" }] });
  assert.deepEqual(anthropic.messages[1]!.content[1], { type: "tool_use", id: "c_1", name: "Run", input: { input: "not json" } });
  assert.deepEqual(anthropic.messages[2]!.content, [
    { type: "tool_result", tool_use_id: "c_1" },
    { type: "text", text: "a" },
    { type: "text", text: "b" },
    { type: "text", text: "[system] late rule" },
  ]);
});

test("no empty messages: reasoning-only and empty-text messages disappear", () => {
  const view = [
    msg("user", text("q")),
    msg("assistant", { type: "reasoning", text: "hmm" }),
    msg("assistant", text("  ")),
    msg("user", { type: "image", bytes: 10 }),
  ];
  assert.deepEqual(toOpenAiMessages(view), [{ role: "user", content: "q\n\n[image omitted]" }]);
});

test("every real trace's raw prefix and self-gc projection normalise into valid provider messages", async () => {
  let checked = 0;
  for (const { where, analyzed, cut } of await allTraceCuts()) {
    const result = await runPolicy(selfGcPolicy, {
      session: analyzed.session,
      index: analyzed.index,
      cut,
      window: Math.ceil(analyzed.index.prefixTokens[cut]! / 0.9),
      tokenizer: traceTokenizer,
    });
    assertValidOpenAi(toOpenAiMessages(result.view), where);
    assertValidAnthropic(toAnthropicMessages(result.view), where);
    checked++;
  }
  assert.ok(checked > 500);
});
