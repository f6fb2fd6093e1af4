import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { geminiCliStreamJsonImporter } from "../../../lib/trace/importers/gemini-cli-stream-json";
import { detectFormat } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readAllManifests } from "../../helpers/traces-new";

/**
 * No real `gemini --output-format stream-json` output was available, so these streams are written
 * from the published event schema (geminicli.com/docs/cli/headless; gemini-cli's
 * packages/core/src/output/types.ts `JsonStreamEvent`): init, message (user / assistant, `delta`),
 * tool_use, tool_result, error, result.
 */
const jsonl = (...records: unknown[]) => records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";
const at = (s: number) => `2025-10-10T12:00:${String(s).padStart(2, "0")}.000Z`;
const init = { type: "init", timestamp: at(0), session_id: "c1f3-9e", model: "gemini-2.5-pro" };
const parse = (text: string) => geminiCliStreamJsonImporter.parse(sourceFromText("run.jsonl", text));

const STREAM = jsonl(
  init,
  { type: "message", timestamp: at(1), role: "user", content: "List the files and read the README" },
  { type: "message", timestamp: at(2), role: "assistant", content: "I'll look", delta: true },
  { type: "message", timestamp: at(2), role: "assistant", content: " around first.", delta: true },
  { type: "tool_use", timestamp: at(3), tool_name: "list_directory", tool_id: "ls-1", parameters: { path: "." } },
  { type: "tool_use", timestamp: at(3), tool_name: "read_file", tool_id: "read-1", parameters: { file_path: "README.md" } },
  { type: "tool_result", timestamp: at(4), tool_id: "ls-1", status: "success", output: "README.md\nsrc/" },
  { type: "tool_result", timestamp: at(4), tool_id: "read-1", status: "error", error: { type: "FILE_NOT_FOUND", message: "File not found" } },
  { type: "error", timestamp: at(5), severity: "warning", message: "Loop detected, stopping execution" },
  { type: "message", timestamp: at(6), role: "assistant", content: "There is no README.", delta: true },
  {
    type: "result",
    timestamp: at(7),
    status: "success",
    stats: { total_tokens: 180, input_tokens: 150, output_tokens: 30, cached: 40, input: 110, duration_ms: 1200, tool_calls: 2 },
  },
);

describe("gemini_cli_stream_json: a headless run", () => {
  it("is one session named by init, with the turn's text and calls in one assistant message", async () => {
    const { format, sessions, issues } = await parse(STREAM);
    assert.equal(format, "gemini_cli_stream_json");
    assert.deepEqual(issues, []);
    const [session] = sessions;
    assert.equal(session!.id, "c1f3-9e");
    assert.deepEqual(session!.models, ["gemini-2.5-pro"]);
    assert.equal(session!.title, "List the files and read the README");
    assert.deepEqual(
      session!.messages.map((m) => [m.role, m.source.line]),
      [
        ["user", 2],
        ["assistant", 3],
        ["tool", 7],
        ["assistant", 10],
      ],
    );
    const turn = session!.messages[1]!;
    assert.deepEqual(turn.parts, [
      { type: "text", text: "I'll look around first." },
      { type: "tool_call", id: "ls-1", name: "list_directory", arguments: '{"path":"."}' },
      { type: "tool_call", id: "read-1", name: "read_file", arguments: '{"file_path":"README.md"}' },
    ]);
    assert.deepEqual(turn.records, [
      { line: 3, parts: 1 },
      { line: 5, parts: 1 },
      { line: 6, parts: 1 },
    ]);
    assert.equal(turn.model, "gemini-2.5-pro");
    assert.equal(turn.timestamp, at(2));
  });

  it("groups a turn's results in one tool message; a failed tool is an error with its message", async () => {
    const { sessions } = await parse(STREAM);
    const results = sessions[0]!.messages[2]!;
    assert.deepEqual(results.parts, [
      { type: "tool_result", callId: "ls-1", name: "list_directory", content: "README.md\nsrc/" },
      { type: "tool_result", callId: "read-1", name: "read_file", content: "File not found", isError: true },
    ]);
    assert.deepEqual(results.records, [
      { line: 7, parts: 1 },
      { line: 8, parts: 1 },
    ]);
  });

  it("skips warnings to the user and takes the session's usage from the result event", async () => {
    const { sessions } = await parse(STREAM);
    assert.ok(!sessions[0]!.messages.some((m) => m.parts.some((p) => p.type === "text" && p.text.includes("Loop detected"))));
    assert.deepEqual(sessions[0]!.usage, { inputTokens: 150, outputTokens: 30, cachedInputTokens: 40 });
  });

  it("a whole (non-delta) assistant message after tool calls starts the next turn", async () => {
    const text = jsonl(
      init,
      { type: "tool_use", timestamp: at(1), tool_name: "glob", tool_id: "g-1", parameters: {} },
      { type: "message", timestamp: at(2), role: "assistant", content: "Done." },
    );
    const { sessions } = await parse(text);
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.parts.map((p) => p.type)),
      [["tool_call"], ["text"]],
    );
  });
});

describe("gemini_cli_stream_json: malformed input", () => {
  it("locates a bad event by line and field, warns once about unknown types, and keeps the rest", async () => {
    const text = jsonl(
      init,
      { type: "message", timestamp: at(1), role: "user", content: "go" },
      { type: "tool_use", timestamp: at(2), tool_name: "read_file", parameters: {} },
      { type: "message", timestamp: at(3), role: "system", content: 3 },
      { type: "thinking", timestamp: at(4) },
      { type: "thinking", timestamp: at(5) },
      "not json",
      { type: "message", timestamp: at(6), role: "assistant", content: "ok" },
    );
    const { sessions, issues } = await parse(text);
    assert.equal(sessions[0]!.messages.length, 2);
    assert.deepEqual(
      issues.map((i) => [i.severity, i.line, i.field ?? ""]),
      [
        ["error", 3, "tool_id"],
        ["error", 4, "role"],
        ["error", 4, "content"],
        ["warning", 5, "type"],
        ["error", 7, ""],
      ],
    );
    assert.equal(issues[0]!.expected, "string");
  });

  it("a stream with no conversation yields no session and says so", async () => {
    const { sessions, issues } = await parse(jsonl(init, { type: "result", timestamp: at(1), status: "error", error: { type: "Auth", message: "no key" } }));
    assert.equal(sessions.length, 0);
    assert.match(issues[0]!.message, /no message or tool events/);
  });
});

describe("gemini_cli_stream_json: detection", () => {
  it("auto-detects a stream by its init line, and one without init by Gemini's tool fields", () => {
    assert.equal(detectFormat("run.jsonl", STREAM)?.format, "gemini_cli_stream_json");
    const headless = STREAM.split("\n").slice(1).join("\n");
    assert.ok(geminiCliStreamJsonImporter.detect("run.jsonl", headless) >= 0.7);
  });

  it("scores every real trace below 0.3", async () => {
    for (const entry of readAllManifests()) {
      const { head } = await sourceFromFile(entry.absolutePath, entry.path);
      assert.ok(geminiCliStreamJsonImporter.detect(entry.path, head) < 0.3, entry.path);
    }
  });
});
