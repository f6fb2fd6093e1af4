import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { claudeCodeImporter } from "../../../lib/trace/importers/claude-code";
import { sourceFromText } from "../../../lib/trace/source";
import { partSourceLine, recordLines } from "../../../lib/trace/source-records";
import { assistantRecord as assistant, BASH_CALL as call, jsonl, userRecord as user } from "../../helpers/claude-code-parse";

/* How records become messages: tool results beside text, block-array output, one message per API response, compact boundaries. */
describe("claude_code_jsonl: edge cases", () => {
  it("keeps text beside tool results in the same tool message, in order", async () => {
    const mixed = user([
      { type: "tool_result", tool_use_id: "toolu_1", content: "a.txt" },
      { type: "text", text: "[Request interrupted by user]" },
    ]);
    const { sessions } = await claudeCodeImporter.parse(sourceFromText("mixed.jsonl", jsonl(user("go"), assistant([call]), mixed)));
    const message = sessions[0]!.messages[2]!;
    assert.equal(message.role, "tool");
    assert.deepEqual(
      message.parts.map((p) => p.type),
      ["tool_result", "text"],
    );
  });

  it("flattens block-array tool output, keeps is_error and sizes images without keeping them", async () => {
    const png = Buffer.alloc(10, 1).toString("base64");
    const result = user([
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        is_error: true,
        content: [
          { type: "text", text: "line 1" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
        ],
      },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: Buffer.alloc(7, 2).toString("base64") } },
    ]);
    const { sessions } = await claudeCodeImporter.parse(
      sourceFromText("img.jsonl", jsonl(user("go"), assistant([{ type: "thinking", thinking: "hmm", signature: "sig" }, call]), result)),
    );
    const [toolResult, image] = sessions[0]!.messages[2]!.parts;
    assert.deepEqual(toolResult, { type: "tool_result", callId: "toolu_1", name: "Bash", content: "line 1\n[image image/png, 10 bytes]", isError: true });
    assert.deepEqual(image, { type: "image", mediaType: "image/jpeg", bytes: 7 });
    assert.deepEqual(sessions[0]!.messages[1]!.parts[0], { type: "reasoning", text: "hmm" });
    assert.deepEqual(sessions[0]!.messages[1]!.parts[1], { type: "tool_call", id: "toolu_1", name: "Bash", arguments: '{"command":"ls"}' });
  });

  it("merges the records of one API response into one message, keeping each record's line and the last usage once", async () => {
    const usage = { input_tokens: 3, output_tokens: 40, cache_read_input_tokens: 100, cache_creation_input_tokens: 5 };
    const first = assistant([{ type: "text", text: "Let me look." }], { id: "msg_1", usage: { ...usage, output_tokens: 2 } });
    const second = assistant([call], { id: "msg_1", usage });
    const { sessions } = await claudeCodeImporter.parse(sourceFromText("split.jsonl", jsonl(user("go"), first, second)));
    const [, merged, extra] = sessions[0]!.messages;
    assert.equal(extra, undefined);
    assert.deepEqual(
      merged!.parts.map((p) => p.type),
      ["text", "tool_call"],
    );
    assert.deepEqual(merged!.usage, { inputTokens: 3, outputTokens: 40, cachedInputTokens: 100, cacheWriteTokens: 5 });
    assert.equal(merged!.meta?.apiMessageId, "msg_1");
    assert.equal(merged!.source.line, 2);
    assert.deepEqual(merged!.records, [
      { line: 2, parts: 1 },
      { line: 3, parts: 1 },
    ]);
    assert.deepEqual([partSourceLine(merged!, 0), partSourceLine(merged!, 1)], [2, 3]);
  });

  it("puts tool results written between records of one response after the merged response, in file order", async () => {
    const callB = { type: "tool_use", id: "toolu_2", name: "Read", input: { file_path: "a" } };
    const result = (id: string) => user([{ type: "tool_result", tool_use_id: id, content: `out ${id}` }]);
    const text = jsonl(
      user("go"),
      assistant([call], { id: "msg_1" }),
      result("toolu_1"),
      assistant([callB], { id: "msg_1" }),
      result("toolu_2"),
      assistant([{ type: "text", text: "done" }], { id: "msg_2" }),
    );
    const { sessions } = await claudeCodeImporter.parse(sourceFromText("parallel.jsonl", text));
    const shape = sessions[0]!.messages.map((m) => [
      m.role,
      m.source.line,
      recordLines(m),
      m.parts.map((p) => (p.type === "tool_call" ? p.id : p.type === "tool_result" ? `result ${p.callId}` : p.type)),
    ]);
    assert.deepEqual(shape, [
      ["user", 1, [1], ["text"]],
      ["assistant", 2, [2, 4], ["toolu_1", "toolu_2"]],
      ["tool", 3, [3], ["result toolu_1"]],
      ["tool", 5, [5], ["result toolu_2"]],
      ["assistant", 6, [6], ["text"]],
    ]);
    assert.ok(sessions[0]!.messages.every((m) => m.parts.every((p) => p.type !== "tool_result" || !p.orphan)));
  });

  it("does not merge a response across a user prompt or a compact boundary", async () => {
    const boundary = { type: "system", subtype: "compact_boundary", sessionId: "s-1", compactMetadata: { trigger: "auto", preTokens: 9 } };
    const text = jsonl(
      user("go"),
      assistant([{ type: "text", text: "a" }], { id: "msg_1" }),
      user("wait"),
      assistant([{ type: "text", text: "b" }], { id: "msg_1", usage: { input_tokens: 1 } }),
      boundary,
      assistant([{ type: "text", text: "c" }], { id: "msg_1", usage: { input_tokens: 2 } }),
    );
    const { sessions } = await claudeCodeImporter.parse(sourceFromText("apart.jsonl", text));
    const session = sessions[0]!;
    assert.deepEqual(
      session.messages.map((m) => [m.role, m.source.line, m.records ?? null]),
      [
        ["user", 1, null],
        ["assistant", 2, null],
        ["user", 3, null],
        ["assistant", 4, null],
        ["assistant", 6, null],
      ],
    );
    assert.deepEqual(
      session.compactions.map((c) => c.beforeMessage),
      [4],
    );
    assert.deepEqual(
      session.messages.filter((m) => m.usage).map((m) => [m.index, m.usage?.inputTokens]),
      [[4, 2]],
      "a response split apart still reports its usage once",
    );
  });

  it("records a boundary with no summary record and skips non-message records", async () => {
    const boundary = {
      type: "system",
      subtype: "compact_boundary",
      sessionId: "s-1",
      timestamp: "2026-01-01T01:00:00Z",
      compactMetadata: { trigger: "manual", preTokens: 5000 },
    };
    const text = jsonl(
      { type: "file-history-snapshot", messageId: "m", snapshot: {} },
      user("go"),
      { type: "progress", sessionId: "s-1" },
      boundary,
      user("next"),
      { type: "mystery" },
      { type: "mystery" },
    );
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("b.jsonl", text));
    assert.equal(sessions[0]!.messages.length, 2);
    assert.deepEqual(sessions[0]!.compactions, [
      {
        kind: "claude_code_compact_boundary",
        source: { file: "b.jsonl", line: 4 },
        trigger: "manual",
        preTokens: 5000,
        timestamp: "2026-01-01T01:00:00Z",
        beforeMessage: 1,
      },
    ]);
    assert.deepEqual(
      issues.map((i) => [i.severity, i.line]),
      [["warning", 6]],
    );
  });
});
