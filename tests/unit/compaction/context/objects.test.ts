import assert from "node:assert/strict";
import { test } from "node:test";
import { buildContextIndex, extractAnchors, normaliseToolName, normaliseToolCall } from "../../../../lib/compaction/context";
import { rawTokenizer } from "../../../../lib/tokens";
import type { Message, Part, Role, Session } from "../../../../lib/trace/model";

function session(messages: [Role, Part[]][]): Session {
  return {
    id: "s",
    format: "tracefold_jsonl",
    title: "t",
    models: [],
    compactions: [],
    messages: messages.map(([role, parts], index): Message => ({ index, role, parts, source: { file: "f", line: index + 1 } })),
  };
}

const listing = session([
  ["system", [{ type: "text", text: "You are an agent." }]],
  ["user", [{ type: "text", text: "What does src/main.py do?" }]],
  ["assistant", [{ type: "tool_call", id: "c1", name: "Read", arguments: '{"file_path":"src/main.py"}' }]],
  ["tool", [{ type: "tool_result", callId: "c1", content: "def main():\n    print('x')" }]],
  [
    "assistant",
    [
      { type: "tool_call", id: "c2", name: "Bash", arguments: '{"command":"python src/main.py"}' },
      { type: "tool_call", id: "c3", name: "Read", arguments: "{}" },
    ],
  ],
  [
    "tool",
    [
      { type: "tool_result", callId: "c2", content: "x", isError: true },
      { type: "tool_result", callId: "c3", content: "y" },
    ],
  ],
  ["assistant", [{ type: "text", text: "It prints x." }]],
  ["user", [{ type: "text", text: "Thanks. Now open https://example.com/r/8f3a2c" }]],
  ["assistant", [{ type: "text", text: "Done." }]],
]);

test("ids follow seed 000: conversation:user:k and function:<tool>:n per normalised tool", () => {
  const index = buildContextIndex(listing, rawTokenizer("chars4"));
  assert.deepEqual(
    index.objects.map((o) => o.id),
    ["conversation:user:1", "function:read:1", "function:exec:1", "function:read:2", "conversation:user:2"],
  );
});

test("a conversation object spans its user request through the end of its execution", () => {
  const index = buildContextIndex(listing, rawTokenizer("chars4"));
  const first = index.byId.get("conversation:user:1")!;
  assert.equal(first.firstMessage, 1);
  assert.equal(first.lastMessage, 6);
  assert.equal(first.tokens, index.prefixTokens[7]! - index.prefixTokens[1]!);
  assert.equal(index.turnOf[0], undefined, "the system preamble belongs to no turn");
  assert.equal(index.turnOf[5], "conversation:user:1");
});

test("function objects know their part, call, parent and error flag", () => {
  const index = buildContextIndex(listing, rawTokenizer("chars4"));
  const exec = index.byId.get("function:exec:1")!;
  assert.deepEqual(exec.part, { message: 5, part: 0 });
  assert.deepEqual(exec.call, { message: 4, part: 0 });
  assert.equal(exec.parentId, "conversation:user:1");
  assert.equal(exec.isError, true);
  assert.equal(index.functionAt.get("5:1"), "function:read:2");
});

test("the same session always gets the same ids and counts", () => {
  const a = buildContextIndex(listing, rawTokenizer("o200k"));
  const b = buildContextIndex(structuredClone(listing), rawTokenizer("o200k"));
  assert.deepEqual(a.objects, b.objects);
  assert.deepEqual(a.prefixTokens, b.prefixTokens);
});

test("prefix sums are monotone and end at the session total", () => {
  const index = buildContextIndex(listing, rawTokenizer("o200k"));
  for (let i = 1; i < index.prefixTokens.length; i++) assert.ok(index.prefixTokens[i]! > index.prefixTokens[i - 1]!);
  assert.equal(
    index.prefixTokens.at(-1),
    index.messageTokens.reduce((a, b) => a + b, 0),
  );
});

test("tool names normalise across harnesses", () => {
  assert.equal(normaliseToolName("Read"), "read");
  assert.equal(normaliseToolName("execute_bash"), "exec");
  assert.equal(normaliseToolName("WebFetch"), "web_fetch");
  assert.equal(normaliseToolName("mcp__github__create_issue"), "create_issue");
  assert.equal(normaliseToolName("Get User Details"), "get_user_details");
  assert.equal(normaliseToolCall("str_replace_editor", '{"command":"view","path":"/a"}'), "read");
  assert.equal(normaliseToolCall("str_replace_editor", '{"command": "str_replace"}'), "edit");
});

test("anchors pick out URLs, paths, ids and significant numbers", () => {
  const anchors = extractAnchors("Open https://reports.example.com/r/8f3a2c then edit /srv/app/report.xlsx; job JOB-48213 cost $1,284.50 (see 7c642069)");
  const values = anchors.map((a) => `${a.kind}:${a.value}`);
  assert.ok(values.includes("url:https://reports.example.com/r/8f3a2c"));
  assert.ok(values.includes("path:/srv/app/report.xlsx"));
  assert.ok(values.includes("id:JOB-48213"));
  assert.ok(values.includes("id:7c642069"));
  assert.ok(values.some((v) => v.startsWith("number:") && v.includes("1,284.50")));
});

test("anchor extraction is capped per object", () => {
  const text = Array.from({ length: 1000 }, (_, i) => `value ${10000 + i}`).join("\n");
  assert.equal(extractAnchors(text).length, 200);
});
