import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { MIN_DETECT_SCORE } from "../../../lib/trace/importer";
import { claudeCodeImporter } from "../../../lib/trace/importers/claude-code";
import { codexRolloutImporter } from "../../../lib/trace/importers/codex-rollout";
import { sessionUsageRows } from "../../../lib/online/usage/trace-usage";
import { createAnalyzer } from "../../../lib/trace/analyze";
import type { ParseIssue, Part, Session } from "../../../lib/trace/model";
import { HEAD_BYTES, sourceFromText, type TraceSource } from "../../../lib/trace/source";
import { partSourceLine, recordLines } from "../../../lib/trace/source-records";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { countResponses } from "../../helpers/claude-code-raw";
import { readManifest } from "../../helpers/traces";

/**
 * The registry imports every importer, and some are still being written: when it does not load,
 * these tests call the importer directly and skip only the registry-level assertions.
 */
type ParseTraceModule = typeof import("../../../lib/trace/parse-trace");
let registry: ParseTraceModule | undefined;
before(async () => {
  try {
    registry = await import("../../../lib/trace/parse-trace");
  } catch {
    registry = undefined;
  }
});

async function parse(source: TraceSource): Promise<{ sessions: Session[]; issues: ParseIssue[] }> {
  return registry ? registry.parseTrace(source, { format: "claude_code_jsonl" }) : claudeCodeImporter.parse(source);
}

const manifest = readManifest();
const claudeRows = manifest.filter((row) => row.format === "claude_code_jsonl");
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));
const jsonl = (...records: unknown[]) => records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";

describe("claude_code_jsonl: real transcripts match the MANIFEST", () => {
  it("has claude_code_jsonl rows to check", () => assert.ok(claudeRows.length >= 10));

  for (const row of claudeRows) {
    it(row.path, async () => {
      const { sessions, issues } = await parse(await sourceFromFile(row.absolutePath, row.path));
      assert.deepEqual(errorsOf(issues), []);
      const expected = countResponses(row.absolutePath);
      assert.equal(sessions.length, row.sessions + expected.inlineThreads, "the MANIFEST's sessions, plus one per inline sidechain thread");
      const analyzer = createAnalyzer({ tokenizer: "chars4" });
      const stats = sessions.map((s) => analyzer.analyze(s).stats);
      assert.equal(
        stats.reduce((n, s) => n + s.records, 0),
        row.messages,
        "records (the MANIFEST's messages column counts records)",
      );
      assert.equal(expected.records, row.messages, "the raw count agrees with the MANIFEST");
      assert.equal(
        sessions.reduce((n, s) => n + s.messages.length, 0),
        expected.messages,
        "messages: one per API response",
      );
      assert.equal(
        stats.reduce((n, s) => n + s.messages, 0),
        expected.messages,
        "stats.messages",
      );
      assert.equal(partsOf(sessions, "tool_call").length, row.toolCalls, "tool_call parts");
      assert.equal(partsOf(sessions, "tool_result").length, row.toolResults, "tool_result parts");
      assert.deepEqual([...new Set(sessions.flatMap((s) => s.models))], row.models, "the models of the file (its sessions share them)");
      assert.equal(partsOf(sessions, "tool_result").filter((p) => p.type === "tool_result" && p.orphan).length, 0, "every result links to its call");
      for (const session of sessions) session.messages.forEach((m, i) => assert.equal(m.index, i));
    });
  }
});

describe("claude_code_jsonl: sessions, compactions, subagents", () => {
  const row = (fragment: string) => {
    const found = claudeRows.find((r) => r.path.endsWith(fragment));
    assert.ok(found, `MANIFEST row ${fragment}`);
    return found;
  };
  const parseRow = async (fragment: string) => {
    const entry = row(fragment);
    return parse(await sourceFromFile(entry.absolutePath, entry.path));
  };

  for (const id of ["258c7280-ae70-4798-800f-63464d01a85d", "4d5611e5-241a-462a-8d15-5122611a9569"]) {
    it(`long main session ${id.slice(0, 8)} has exactly one native compaction with preTokens and a summary`, async () => {
      const { sessions } = await parseRow(`${id}.jsonl`);
      const session = sessions[0]!;
      assert.equal(session.id, id);
      assert.equal(session.compactions.length, 1);
      const compaction = session.compactions[0]!;
      assert.equal(compaction.kind, "claude_code_compact_boundary");
      assert.equal(compaction.trigger, "auto");
      assert.ok((compaction.preTokens ?? 0) > 100_000, `preTokens ${compaction.preTokens}`);
      assert.ok(compaction.summary && compaction.summary.startsWith("This session is being continued"));
      const summaryMessage = session.messages[compaction.beforeMessage]!;
      assert.equal(summaryMessage.meta?.compactSummary, true, "the summary record is kept as the first message after the boundary");
      assert.equal(summaryMessage.source.line, compaction.source.line + 1);
    });
  }

  it("keeps each API response's usage once, from its last record: usage rows and provider input tokens match the raw file", async () => {
    const entry = row("258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const { sessions } = await parse(await sourceFromFile(entry.absolutePath, entry.path));
    const session = sessions[0]!;
    // Independently from the raw JSONL: the last usage each message.id reported, and the largest prompt.
    type RawUsage = { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
    const lastUsage = new Map<string, RawUsage>();
    for (const text of readFileSync(entry.absolutePath, "utf8").split("\n")) {
      if (!text.trim()) continue;
      const record = JSON.parse(text) as { type?: string; message?: { id?: string; model?: string; usage?: RawUsage } };
      if (record.type === "assistant" && record.message?.id && record.message.usage && record.message.model !== "<synthetic>")
        lastUsage.set(record.message.id, record.message.usage);
    }
    const prompt = (u: RawUsage) => u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    const withUsage = session.messages.filter((m) => m.usage);
    assert.ok(withUsage.length > 100);
    assert.deepEqual(
      withUsage.map((m) => [m.meta?.apiMessageId, m.usage!.inputTokens, m.usage!.outputTokens]),
      [...lastUsage].map(([id, u]) => [id, u.input_tokens, u.output_tokens]),
      "one usage per response, in order, the last record's",
    );
    const rows = sessionUsageRows(session, { account: "a" }).rows;
    assert.equal(rows.length, lastUsage.size, "one usage row per model call");
    const stats = createAnalyzer({ tokenizer: "chars4" }).analyze(session).stats;
    assert.equal(stats.providerInputTokens, Math.max(...[...lastUsage.values()].map(prompt)));
  });

  it("makes subagent files their own session whose parent is the path's session id", async () => {
    const { sessions } = await parseRow("258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl");
    assert.equal(sessions[0]!.id, "258c7280-ae70-4798-800f-63464d01a85d:agent-a881341");
    assert.equal(sessions[0]!.parentId, "258c7280-ae70-4798-800f-63464d01a85d");
    assert.ok(sessions[0]!.title.startsWith("What is the output contract"));
  });

  it("makes each inline sidechain thread of an older CLI a session of its own, linked both ways to its Task call", async () => {
    const { sessions } = await parseRow("fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
    const [main, ...threads] = sessions;
    assert.equal(main!.parentId, undefined);
    assert.equal(main!.title, "/orchestrator create TODO app by Next.js");
    assert.equal(main!.messages.filter((m) => m.meta?.sidechain === true).length, 0, "the main session holds no sidechain record");
    assert.equal(threads.length, 5, "five Task calls, five threads");
    const children = threads.flatMap((t) => t.messages);
    assert.ok(children.every((m) => m.meta?.sidechain === true));
    assert.equal(
      children.reduce((n, m) => n + recordLines(m).length, 0),
      405,
      "sidechain records",
    );
    assert.equal(children.length, 322, "sidechain messages (split responses merged)");
    const calls = new Map(main!.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === "tool_call" ? [[p.id, { message: m, call: p }] as const] : []))));
    for (const thread of threads) {
      assert.equal(thread.parentId, main!.id);
      assert.match(thread.id, new RegExp(`^${main!.id}:sidechain-[0-9a-f-]{36}$`));
      const callId = String(thread.meta?.parentCallId);
      const found = calls.get(callId);
      assert.ok(found, `${thread.id}: its Task call ${callId} is in the main session`);
      assert.equal(found.call.name, "Task");
      assert.equal(found.message.meta?.[`subagent:${callId}`], thread.id, "the call's message points at the thread");
      const prompt = (JSON.parse(found.call.arguments) as { prompt: string }).prompt;
      assert.equal(thread.messages[0]!.role, "user");
      assert.equal(thread.messages[0]!.parts[0]!.type === "text" && thread.messages[0]!.parts[0]!.text, prompt, "the thread starts with the call's prompt");
      assert.equal(thread.title, prompt.split("\n")[0]!.slice(0, 79) + (prompt.split("\n")[0]!.length > 80 ? "…" : ""));
    }
  });

  it("points a newer CLI's Task call at its subagent file's session", async () => {
    const { sessions } = await parseRow("258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const pointers = sessions[0]!.messages.flatMap((m) => Object.entries(m.meta ?? {}).filter(([key]) => key.startsWith("subagent:")));
    assert.deepEqual(pointers, [["subagent:toolu_01VmaERAwhb19LGUwu9GenaK", "258c7280-ae70-4798-800f-63464d01a85d:agent-a881341"]]);
  });

  it("maps user records with tool_result blocks to role tool, with is_error kept", async () => {
    const { sessions } = await parseRow("tool_heavy.jsonl");
    const results = sessions[0]!.messages.filter((m) => m.parts.some((p) => p.type === "tool_result"));
    assert.ok(results.length > 0 && results.every((m) => m.role === "tool"));
    assert.ok(sessions[0]!.messages.every((m) => m.source.line > 0));
  });
});

describe("claude_code_jsonl: detection", () => {
  for (const row of claudeRows) {
    it(`recognises ${row.path}`, async () => {
      const { head } = await sourceFromFile(row.absolutePath, row.path);
      assert.ok(claudeCodeImporter.detect(row.path, head) >= 0.9);
      assert.equal(codexRolloutImporter.detect(row.path, head), 0);
      if (registry) assert.equal(registry.detectFormat(row.path, head)?.format, "claude_code_jsonl");
    });
  }

  for (const format of ["tau_bench_traj", "aider_chat_md"]) {
    const row = manifest.find((r) => r.format === format);
    it(`does not claim ${format}`, async () => {
      assert.ok(row, `a MANIFEST row of ${format}`);
      const { head } = await sourceFromFile(row.absolutePath, row.path);
      assert.equal(claudeCodeImporter.detect(row.path, head), 0);
      if (registry) assert.notEqual(registry.detectFormat(row.path, head)?.format, "claude_code_jsonl");
    });
  }

  it("recognises a file whose first line is longer than the 64 KiB head", () => {
    const huge = { parentUuid: null, isSidechain: false, sessionId: "s-1", type: "user", message: { role: "user", content: "x".repeat(100_000) } };
    const source = sourceFromText("big.jsonl", jsonl(huge));
    assert.equal(source.head.length, HEAD_BYTES);
    assert.ok(claudeCodeImporter.detect("big.jsonl", source.head) >= MIN_DETECT_SCORE);
  });

  it("judges complete lines only when the head cuts a later line", () => {
    const path = claudeRows.find((r) => r.path.endsWith("short.jsonl"))!.absolutePath;
    const head = readFileSync(path, "utf8").slice(0, 3000);
    assert.ok(claudeCodeImporter.detect("short.jsonl", head) >= 0.9);
  });

  it("rejects JSONL of other shapes and plain JSON", () => {
    assert.equal(claudeCodeImporter.detect("x.jsonl", jsonl({ role: "user", content: "hi" })), 0);
    assert.equal(claudeCodeImporter.detect("x.json", '[{"role":"user"}]'), 0);
  });
});

describe("claude_code_jsonl: edge cases", () => {
  const user = (content: unknown, extra: object = {}) => ({
    type: "user",
    sessionId: "s-1",
    parentUuid: null,
    timestamp: "2026-01-01T00:00:00Z",
    message: { role: "user", content },
    ...extra,
  });
  const assistant = (content: unknown[], extra: object = {}) => ({
    type: "assistant",
    sessionId: "s-1",
    parentUuid: "u",
    message: { role: "assistant", model: "claude-opus-4-6", content, ...extra },
  });
  const call = { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } };

  it("reports a truncated last line as the file ending early, at its line, and keeps the lines before it", async () => {
    const text = jsonl(user("list files"), assistant([call])) + '{"type":"user","sessionId":"s-1","message":{"role":"user","content":[{"type":"tool_res';
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("cut.jsonl", text));
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.file, i.line]),
      [["cut.jsonl", 3]],
    );
    assert.match(issues[0]!.message, /^the file ends early: the JSON stops at its last line \(3\) inside a string/);
    assert.equal(sessions[0]!.messages.length, 2);
    assert.equal(sessions[0]!.messages[1]!.parts[0]!.type, "tool_call");
  });

  it("reports a line that is an array or a number, naming what was expected", async () => {
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("odd.jsonl", jsonl("[1,2]", "42", user("hello"))));
    const errors = errorsOf(issues);
    assert.deepEqual(
      errors.map((i) => i.line),
      [1, 2],
    );
    assert.match(errors[0]!.message, /an array/);
    assert.match(errors[1]!.message, /a number/);
    for (const error of errors) assert.match(error.expected ?? "", /JSON object/);
    assert.equal(sessions[0]!.messages.length, 1);
  });

  it("locates a tool_result without tool_use_id by field", async () => {
    const { issues } = await claudeCodeImporter.parse(sourceFromText("bad.jsonl", jsonl(user([{ type: "tool_result", content: "x" }]))));
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.line, i.field]),
      [[1, "message.content[0].tool_use_id"]],
    );
  });

  it("reports a message whose content is neither string nor array", async () => {
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("bad.jsonl", jsonl(user("ok"), user(7))));
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.line, i.field]),
      [[2, "message.content"]],
    );
    assert.equal(sessions[0]!.messages.length, 1);
  });

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

  it("returns no session (and a warning) for a file without messages", async () => {
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("empty.jsonl", ""));
    assert.deepEqual(sessions, []);
    assert.deepEqual(errorsOf(issues), []);
  });
});
