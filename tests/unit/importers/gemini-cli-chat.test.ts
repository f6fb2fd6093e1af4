import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { geminiCliChatImporter } from "../../../lib/trace/importers/gemini-cli-chat";
import type { ParseIssue, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { REFUSED_NEW_TRACES, readAllManifests, readNewManifest } from "../../helpers/traces-new";

const rows = readNewManifest().filter((r) => r.format === "gemini_cli_chat");
const jsonlRow = rows.find((r) => r.path.endsWith(".jsonl"))!;
const jsonRow = rows.find((r) => r.path.endsWith(".json"))!;
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const jsonl = (...records: unknown[]) => records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";
const parse = (name: string, text: string) => geminiCliChatImporter.parse(sourceFromText(name, text));

const header = { sessionId: "s-1", projectHash: "abc", startTime: "2026-04-23T12:52:52.759Z", lastUpdated: "2026-04-23T12:52:52.759Z", kind: "main" };
const user = (id: string, text: string) => ({ id, timestamp: "2026-04-23T12:53:00.000Z", type: "user", content: [{ text }] });
const call = (id: string, name: string, result: unknown, status = "success") => ({
  id,
  name,
  args: { file_path: "a.py" },
  status,
  timestamp: "2026-04-23T12:53:02.000Z",
  ...(result === undefined ? {} : { result }),
});
const output = (id: string, name: string, response: unknown) => [{ functionResponse: { id, name, response } }];
const gemini = (id: string, more: Record<string, unknown> = {}) => ({
  id,
  timestamp: "2026-04-23T12:53:01.000Z",
  type: "gemini",
  content: "",
  model: "gemini-2.5-pro",
  ...more,
});

describe("gemini_cli_chat: the JSONL recording", () => {
  let session: Session;
  let issues: ParseIssue[];
  before(async () => {
    const result = await geminiCliChatImporter.parse(await sourceFromFile(jsonlRow.absolutePath, jsonlRow.path));
    assert.equal(result.sessions.length, 1);
    session = result.sessions[0]!;
    issues = result.issues;
  });

  it("is one session named by its sessionId, titled by what the user typed", () => {
    assert.deepEqual(issues, []);
    assert.equal(session.id, "0ab84937-9fe7-4284-986a-33c832af0b6a");
    assert.equal(session.title, "/init");
    assert.equal(session.startedAt, "2026-04-23T12:52:52.759Z");
    assert.equal(session.meta?.kind, "main");
    assert.deepEqual(session.models, ["gemini-3-flash-preview", "gemini-3.1-pro-preview"]);
  });

  it("keeps one message per record id, from the record's last version, and skips the CLI's notices", () => {
    assert.deepEqual(
      session.messages.map((m) => `${m.role}@${m.source.line}`),
      [
        "user@4",
        "assistant@8",
        "tool@8",
        "assistant@11",
        "tool@11",
        "assistant@14",
        "tool@14",
        "assistant@17",
        "tool@17",
        "user@18",
        "assistant@20",
        "user@22",
        "assistant@26",
        "tool@26",
      ],
    );
    const rewritten = session.messages[1]!;
    assert.equal(rewritten.parts.filter((p) => p.type === "tool_call").length, 5, "line 8 rewrote line 6 with its tool calls");
    assert.ok(!session.messages.some((m) => m.parts.some((p) => p.type === "text" && /Request cancelled|Empty GEMINI\.md/.test(p.text))));
  });

  it("turns thoughts into reasoning, tokens into usage (thoughts billed as output) and results into a tool message", () => {
    const first = session.messages[1]!;
    assert.equal(first.parts[0]!.type, "reasoning");
    assert.ok(first.parts[0]!.type === "reasoning" && first.parts[0]!.text.startsWith("Initiating File Generation: I'm now focused"));
    assert.deepEqual(first.usage, { inputTokens: 13906, outputTokens: 185 + 306, cachedInputTokens: 0 });
    const results = session.messages[2]!.parts;
    assert.equal(results.length, 5);
    for (const [i, part] of results.entries()) {
      const callPart = first.parts.filter((p) => p.type === "tool_call")[i]!;
      assert.ok(part.type === "tool_result" && callPart.type === "tool_call" && part.callId === callPart.id && part.name === callPart.name && !part.orphan);
    }
    assert.ok(results[0]!.type === "tool_result" && results[0]!.content.startsWith("Current topic:"));
  });
});

describe("gemini_cli_chat: the single-JSON recording", () => {
  it("points every message at its record's opening brace", async () => {
    const { sessions, issues } = await geminiCliChatImporter.parse(await sourceFromFile(jsonRow.absolutePath, jsonRow.path));
    assert.deepEqual(issues, []);
    const [session] = sessions;
    assert.equal(session!.id, "5b959dae-8655-4cd1-b10f-720b8c336ea2");
    assert.equal(session!.title, "hi");
    const lines = readFileSync(jsonRow.absolutePath, "utf8").split("\n");
    for (const m of session!.messages) assert.equal(lines[m.source.line - 1]!.trim(), "{", `message ${m.index}`);
    assert.equal(lines[session!.messages[0]!.source.line]!.trim(), '"id": "aa4e1408-dfa9-4337-8768-70d6d3f17129",');
  });
});

describe("gemini_cli_chat: logs.json", () => {
  it("is refused with the reason and where to look instead", async () => {
    const text = JSON.stringify([{ sessionId: "5b959dae-8655", messageId: 0, type: "user", message: "hi", timestamp: "2025-12-01T21:45:34.356Z" }], null, 2);
    const { sessions, issues } = await parse("logs.json", text);
    assert.equal(sessions.length, 0);
    assert.equal(issues.length, 1);
    assert.match(issues[0]!.message, /only the user's prompts.*import the chat recording of the same session instead \(sessionId 5b959dae-8655\)/);
    assert.match(issues[0]!.expected ?? "", /chats\/session-\*\.json or \.jsonl/);
    assert.ok(geminiCliChatImporter.detect("chats/../logs.json", text) >= 0.8);
    assert.ok(
      Object.keys(REFUSED_NEW_TRACES).some((path) => path.endsWith("/logs.json")),
      "the real logs.json is checked in tests/unit/trace/traces-new.test.ts",
    );
  });
});

describe("gemini_cli_chat: records the CLI rewrites", () => {
  it("a $rewindTo drops that message and every later one; an unknown id drops them all", async () => {
    const text = jsonl(
      header,
      user("u1", "first"),
      gemini("g1", { content: "one" }),
      user("u2", "second"),
      gemini("g2", { content: "two" }),
      { $rewindTo: "u2" },
      user("u3", "third"),
    );
    const { sessions } = await parse("session-x.jsonl", text);
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.parts[0]!.type === "text" && m.parts[0]!.text),
      ["first", "one", "third"],
    );
    const cleared = await parse("session-x.jsonl", jsonl(header, user("u1", "first"), { $rewindTo: "nope" }, user("u9", "again")));
    assert.deepEqual(
      cleared.sessions[0]!.messages.map((m) => m.source.line),
      [4],
    );
  });

  it("a $set summary titles the session; a rewritten record keeps its place", async () => {
    const text = jsonl(
      header,
      user("u1", "do it"),
      gemini("g1", { content: "ok" }),
      user("u2", "more"),
      gemini("g1", { content: "ok!", toolCalls: [call("c1", "read_file", output("c1", "read_file", { output: "x" }))] }),
      { $set: { summary: "Read a.py" } },
    );
    const { sessions } = await parse("session-x.jsonl", text);
    assert.equal(sessions[0]!.title, "Read a.py");
    assert.deepEqual(
      sessions[0]!.messages.map((m) => `${m.role}@${m.source.line}`),
      ["user@2", "assistant@5", "tool@5", "user@4"],
    );
  });

  it("failed and cancelled calls are errors; a call without a result has no tool message", async () => {
    const calls = [
      call("c1", "run_shell_command", output("c1", "run_shell_command", { error: "exit 1" }), "error"),
      call("c2", "replace", output("c2", "replace", { output: "[Operation Cancelled]" }), "cancelled"),
      call("c3", "read_file", undefined, "scheduled"),
    ];
    const { sessions } = await parse("session-x.jsonl", jsonl(header, user("u1", "go"), gemini("g1", { toolCalls: calls })));
    const [, assistant, tool] = sessions[0]!.messages;
    assert.equal(assistant!.parts.length, 3);
    assert.deepEqual(tool!.parts, [
      { type: "tool_result", callId: "c1", name: "run_shell_command", content: "exit 1", isError: true },
      { type: "tool_result", callId: "c2", name: "replace", content: "[Operation Cancelled]", isError: true },
    ]);
  });

  it("inline images become size-only placeholders; a string content is text", async () => {
    const image = {
      id: "u1",
      type: "user",
      timestamp: "t",
      content: [{ text: "what is this?" }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }],
    };
    const { sessions } = await parse("session-x.jsonl", jsonl(header, image, gemini("g1", { content: "a logo" })));
    assert.deepEqual(sessions[0]!.messages[0]!.parts, [
      { type: "text", text: "what is this?" },
      { type: "image", mediaType: "image/png", bytes: 8 },
    ]);
    assert.deepEqual(sessions[0]!.messages[1]!.parts, [{ type: "text", text: "a logo" }]);
  });
});

describe("gemini_cli_chat: malformed input", () => {
  it("locates a broken record by line and field, names what was expected, and imports the rest", async () => {
    const text = jsonl(
      header,
      user("u1", "hi"),
      { id: "g1", type: "gemini", content: "x", toolCalls: [{ id: "c1", args: {} }], tokens: { input: "many", output: 3 } },
      "[1]",
      { hello: 1 },
      gemini("g2", { content: "fine" }),
    );
    const { sessions, issues } = await parse("session-x.jsonl", text);
    assert.deepEqual(sessions[0]!.messages.length, 2);
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.line, i.field ?? "", i.expected ?? ""]),
      [
        [3, "toolCalls[0].name", "string"],
        [3, "tokens.input", "number"],
        [4, "", "a message record, {$set}, {$rewindTo} or the metadata line"],
        [5, "", "a Gemini CLI chat record"],
      ],
    );
  });

  it("warns once about an unknown message type", async () => {
    const { issues } = await parse(
      "session-x.jsonl",
      jsonl(header, user("u1", "hi"), { id: "x1", type: "hologram", content: "?" }, { id: "x2", type: "hologram", content: "?" }),
    );
    assert.deepEqual(
      issues.map((i) => [i.severity, i.line, i.field]),
      [["warning", 3, "type"]],
    );
  });

  it("a JSON recording without messages, or not a recording at all, is a located error", async () => {
    const noMessages = await parse("session-x.json", JSON.stringify({ ...header, messages: "none" }, null, 2));
    assert.deepEqual(
      noMessages.issues.map((i) => [i.line, i.field]),
      [[7, "messages"]],
    );
    const other = await parse("session-x.json", JSON.stringify({ hello: "world" }, null, 2));
    assert.match(other.issues[0]!.message, /expected a Gemini CLI chat recording, found an object without a sessionId/);
  });
});

describe("gemini_cli_chat: detection", () => {
  it("scores its own files at least 0.9 and every other real trace below 0.3", async () => {
    for (const row of readAllManifests()) {
      const { head } = await sourceFromFile(row.absolutePath, row.path);
      const score = geminiCliChatImporter.detect(row.path, head);
      if (row.format === "gemini_cli_chat") assert.ok(score >= 0.9, row.path);
      else assert.ok(score < 0.3, `${row.path}: ${score}`);
    }
  });
});
