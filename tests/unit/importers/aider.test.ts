import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { aiderImporter, parseUsage } from "../../../lib/trace/importers/aider";
import type { Message, ParseIssue, Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const manifest = readManifest();
const rows = manifest.filter((row) => row.format === "aider_chat_md");
const FIXTURE = resolve(__dirname, "../../fixtures/aider/sample.aider.chat.history.md");
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));
const textOf = (message: Message | undefined) => message?.parts.map((p) => ("text" in p ? p.text : "content" in p ? p.content : "")).join("\n") ?? "";
const parseRow = async (suffix: string) => {
  const row = rows.find((r) => r.path.includes(suffix))!;
  return { row, ...(await aiderImporter.parse(await sourceFromFile(row.absolutePath, row.path))) };
};

describe("aider_chat_md: real histories match the MANIFEST", () => {
  it("has aider_chat_md rows to check", () => assert.ok(rows.length >= 2));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions, issues } = await aiderImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      assert.deepEqual(errorsOf(issues), []);
      assert.equal(sessions.length, row.sessions, "one session per `# aider chat started at` header");
      // The MANIFEST's message count for aider is the number of user inputs (blocks of `####`
      // lines); assistant replies and the synthesised tool messages come on top of it.
      const messages = sessions.flatMap((s) => s.messages);
      assert.equal(messages.filter((m) => m.role === "user").length, row.messages, "user inputs");
      assert.equal(messages.filter((m) => m.role === "tool").length, row.toolResults, "one tool message per result");
      assert.equal(partsOf(sessions, "tool_call").length, row.toolCalls, "Applied edit lines + shell command blocks");
      assert.equal(partsOf(sessions, "tool_result").length, row.toolResults);
      assert.ok(
        partsOf(sessions, "tool_result").every((p) => p.type === "tool_result" && !p.orphan),
        "every result pairs with its call",
      );
      assert.deepEqual([...new Set(sessions.flatMap((s) => s.models))].sort(), [...row.models].sort(), "main models only, not weak models");
    });
  }

  it("afi-core: headers, usage, and a message line that points at its text", async () => {
    const { row, sessions } = await parseRow("afi-core");
    const lines = readFileSync(row.absolutePath, "utf8").split("\n");
    const first = sessions[0]!;
    assert.equal(first.startedAt, "2025-07-15T11:38:37", "local time kept without a zone");
    assert.deepEqual(first.meta, { aiderVersion: "v0.85.1", editFormat: "diff" });
    const reply = first.messages[1]!;
    assert.equal(reply.role, "assistant");
    assert.deepEqual(reply.usage, { inputTokens: 3200, outputTokens: 21 }, "`3.2k sent, 21 received`");
    assert.equal(reply.model, "gpt-4o");
    assert.equal(lines[reply.source.line - 1], textOf(reply));
    assert.equal(sessions[4]!.messages.length, 0, "a session that only updated aider is kept, empty");
    assert.equal(sessions[4]!.title, "aider chat started at 2025-07-16T20:10:38");
  });

  it("afi-core: one shell call per confirmed block, even with several `Running` lines", async () => {
    const { sessions } = await parseRow("afi-core");
    const calls = partsOf(sessions, "tool_call").filter((p) => p.type === "tool_call" && p.name === "shell");
    const block = calls.find((c) => c.type === "tool_call" && c.arguments.startsWith("mkdir -p dist/dags"));
    assert.ok(block?.type === "tool_call");
    assert.equal(block.arguments, "mkdir -p dist/dags\ntouch dist/dags/index.js dist/dags/signalProcessingDAG.js");
    const pushed = sessions.flatMap((s) => s.messages).find((m) => m.role === "tool" && textOf(m).startsWith("Running git push"));
    assert.equal(
      textOf(pushed),
      "Running git push origin main\nAdd command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y\nAdded 50 lines of output to the chat.",
    );
  });

  it("afi-core: multi-line `> ` records do not leak into assistant text", async () => {
    const { sessions } = await parseRow("afi-core");
    const assistantText = sessions
      .flatMap((s) => s.messages)
      .filter((m) => m.role === "assistant")
      .map(textOf);
    assert.ok(!assistantText.some((t) => t.startsWith("## SearchReplaceNoExactMatch")), "the edit-format error is a tool record");
    assert.ok(!assistantText.some((t) => t.startsWith("touch dist/dags")), "the continuation of a padded `> mkdir` line");
    assert.ok(
      assistantText.some((t) => t.includes(">>>>>>> REPLACE")),
      "SEARCH/REPLACE markers stay assistant text",
    );
  });

  it("afi-core: edits carry the commit that recorded them", async () => {
    const { sessions } = await parseRow("afi-core");
    const edit = sessions.flatMap((s) => s.messages).find((m) => textOf(m).startsWith("Applied edit to schemas/validator_metadata_schema.ts"));
    assert.equal(
      textOf(edit),
      "Applied edit to schemas/validator_metadata_schema.ts\nCommit 9760d2f feat: add ValidatorMetadataSchema for validator metadata validation",
    );
  });

  it("mozgoslav: <thinking-content-…> blocks become reasoning parts", async () => {
    const { sessions } = await parseRow("mozgoslav");
    const reply = sessions[1]!.messages[1]!;
    assert.deepEqual(
      reply.parts.map((p) => p.type),
      ["reasoning", "text"],
    );
    assert.ok(!textOf(reply).includes("thinking-content"));
  });
});

describe("aider_chat_md: the invented fixture", () => {
  const parseFixture = async () => aiderImporter.parse(await sourceFromFile(FIXTURE, "sample.aider.chat.history.md"));

  it("parses users, replies, edits and shell blocks into linked messages", async () => {
    const { sessions, issues } = await parseFixture();
    assert.deepEqual(issues, []);
    assert.equal(sessions.length, 2);
    const [first, second] = sessions as [Session, Session];
    assert.deepEqual(
      first.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool", "assistant", "user"],
    );
    assert.equal(textOf(first.messages[0]), "Rename greet() to welcome() in app.py\nand run the tests", "consecutive #### lines are one input");
    const reply = first.messages[1]!;
    assert.deepEqual(
      reply.parts.map((p) => p.type),
      ["reasoning", "text", "tool_call", "tool_call"],
    );
    assert.ok(textOf(reply).includes("#### Plan"), "a heading without a hard break is assistant Markdown");
    assert.deepEqual(reply.parts.slice(2), [
      { type: "tool_call", id: "call_1", name: "edit", arguments: '{"path":"app.py"}' },
      { type: "tool_call", id: "call_2", name: "shell", arguments: "pytest -q\nruff check ." },
    ]);
    assert.deepEqual(reply.usage, { inputTokens: 2400, cacheWriteTokens: 1100, cachedInputTokens: 1000, outputTokens: 96 });
    assert.equal(textOf(first.messages[2]), "Applied edit to app.py\nCommit 1a2b3c4 refactor: rename greet to welcome");
    assert.equal(first.messages[2]!.source.line, 36);
    assert.equal(textOf(first.messages[4]), "All tests pass and ruff is clean.");
    assert.deepEqual(first.models, ["claude-3-7-sonnet"]);
    assert.deepEqual(second.meta, { aiderVersion: "v0.82.0", editFormat: "whole" });
    assert.deepEqual(second.messages[1]!.usage, { inputTokens: 11000, outputTokens: 1200000 });
    assert.equal(second.messages[1]!.model, "gpt-4o");
  });

  it("still reads a copy whose trailing hard breaks were stripped by an editor", async () => {
    const stripped = readFileSync(FIXTURE, "utf8").replace(/ +$/gm, "");
    const { sessions, issues } = await aiderImporter.parse(sourceFromText("stripped.md", stripped));
    assert.deepEqual(errorsOf(issues), []);
    const [first] = sessions;
    assert.equal(textOf(first!.messages[0]), "Rename greet() to welcome() in app.py\nand run the tests");
    assert.equal(partsOf(sessions, "tool_call").length, 2, "edits and shell blocks are found without hard breaks");
    // Without hard breaks a `#### ` heading in a reply cannot be told from user input.
    assert.equal(first!.messages.filter((m) => m.role === "user").length, 3);
  });

  it("opens an undated session for chat text before any header", async () => {
    const { sessions } = await aiderImporter.parse(sourceFromText("x.md", "#### hi  \n\nhello\n\n> Tokens: 10 sent, 2 received.  \n"));
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0]!.startedAt, undefined);
    assert.deepEqual(sessions[0]!.messages[1]!.usage, { inputTokens: 10, outputTokens: 2 });
  });

  it("reports a file with no aider chat in it", async () => {
    const { sessions, issues } = await aiderImporter.parse(sourceFromText("notes.md", ""));
    assert.deepEqual(sessions, []);
    assert.equal(errorsOf(issues).length, 1);
  });
});

describe("aider_chat_md: parseUsage", () => {
  const cases: [string, ReturnType<typeof parseUsage>][] = [
    ["Tokens: 5.8k sent, 183 received. Cost: $0.02 message, $0.07 session.", { inputTokens: 5800, outputTokens: 183 }],
    ["Tokens: 11k sent, 1.2M received.", { inputTokens: 11000, outputTokens: 1200000 }],
    [
      "Tokens: 2.4k sent, 1.1k cache write, 1.0k cache hit, 96 received.",
      { inputTokens: 2400, outputTokens: 96, cachedInputTokens: 1000, cacheWriteTokens: 1100 },
    ],
    ["Tokens: unknown", undefined],
  ];
  for (const [text, expected] of cases) it(text, () => assert.deepEqual(parseUsage(text), expected));
});

describe("aider_chat_md: detection", () => {
  it("scores its own files at least 0.9, by name or by header", async () => {
    for (const row of rows) assert.ok(aiderImporter.detect(row.path, (await sourceFromFile(row.absolutePath, row.path)).head) >= 0.9, row.path);
    assert.ok(aiderImporter.detect("history.md", "\n# aider chat started at 2025-01-01 10:00:00\n") >= 0.9);
  });

  it("scores every other format's real files at 0", async () => {
    for (const row of manifest.filter((r) => r.format !== "aider_chat_md")) {
      assert.equal(aiderImporter.detect(row.path, (await sourceFromFile(row.absolutePath, row.path)).head), 0, row.path);
    }
  });
});
