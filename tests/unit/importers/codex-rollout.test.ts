import assert from "node:assert/strict";
import { resolve } from "node:path";
import { before, describe, it } from "node:test";
import { claudeCodeImporter } from "../../../lib/trace/importers/claude-code";
import { codexRolloutImporter } from "../../../lib/trace/importers/codex-rollout";
import type { ParseIssue, Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

/**
 * No real Codex rollout may be copied (the ones found are redacted and unlicensed), so the golden
 * file is an invented but schema-faithful fixture (FORMATS.md §8): 31 lines, one developer message,
 * injected user context, three kinds of tool call with outputs, token_count events and a `compacted`.
 */
const FIXTURE = resolve(__dirname, "../../fixtures/codex/rollout-sample.jsonl");
const FIXTURE_NAME = "rollout-2025-10-14T09-12-00-0199c2a4-7e1b-7d30-9f6a-3c5e8b1d2f47.jsonl";

type ParseTraceModule = typeof import("../../../lib/trace/parse-trace");
let registry: ParseTraceModule | undefined;
before(async () => {
  try {
    registry = await import("../../../lib/trace/parse-trace");
  } catch {
    registry = undefined; // sibling importers not written yet: test the importer alone
  }
});

const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (session: Session, type: Part["type"]) => session.messages.flatMap((m) => m.parts.filter((p) => p.type === type));
const jsonl = (...records: unknown[]) => records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";
const line = (type: string, payload: unknown) => ({ timestamp: "2025-10-14T09:00:00.000Z", type, payload });

describe("codex_rollout_jsonl: the sample rollout", () => {
  let session: Session;
  let issues: ParseIssue[];
  before(async () => {
    const source = await sourceFromFile(FIXTURE, FIXTURE_NAME);
    const result = registry ? await registry.parseTrace(source, { format: "codex_rollout_jsonl" }) : await codexRolloutImporter.parse(source);
    assert.equal(result.sessions.length, 1);
    session = result.sessions[0]!;
    issues = result.issues;
  });

  it("imports without issues as one session named by session_meta", () => {
    assert.deepEqual(issues, []);
    assert.equal(session.id, "0199c2a4-7e1b-7d30-9f6a-3c5e8b1d2f47");
    assert.equal(session.format, "codex_rollout_jsonl");
    assert.deepEqual(session.models, ["gpt-5-codex"]);
    assert.equal(session.meta?.modelProvider, "openai");
    assert.equal(session.meta?.cliVersion, "0.46.0");
    assert.equal(session.startedAt, "2025-10-14T09:12:03.201Z");
  });

  it("makes one message per response item and ignores event_msg echoes", () => {
    assert.equal(session.messages.length, 18);
    const roles = session.messages.map((m) => m.role);
    assert.deepEqual(
      ["system", "user", "assistant", "tool"].map((r) => roles.filter((x) => x === r).length),
      [1, 4, 9, 4],
    );
    assert.deepEqual(
      session.messages.map((m) => m.source.line),
      [2, 3, 4, 6, 8, 9, 11, 12, 13, 15, 16, 18, 19, 25, 26, 27, 29, 30],
    );
  });

  it("titles the session with the user's own prompt, not injected context", () => {
    assert.ok(session.title.startsWith("The CSV importer drops rows whose description contains a quoted comma."));
  });

  it("links function, custom and local shell calls to their outputs by call_id", () => {
    const calls = partsOf(session, "tool_call");
    const results = partsOf(session, "tool_result");
    assert.deepEqual(
      calls.map((c) => c.type === "tool_call" && c.name),
      ["shell", "apply_patch", "local_shell", "shell"],
    );
    assert.equal(results.length, 4);
    for (const result of results) {
      assert.equal(result.type === "tool_result" && result.orphan, undefined);
      assert.ok(calls.some((c) => c.type === "tool_call" && result.type === "tool_result" && c.id === result.callId));
    }
    const shell = calls[2]!;
    assert.ok(shell.type === "tool_call" && JSON.parse(shell.arguments).command[0] === "npm");
    const patchResult = session.messages.find((m) => m.source.line === 15)!.parts[0]!;
    assert.ok(patchResult.type === "tool_result" && patchResult.name === "apply_patch", "result names come from their call");
  });

  it("keeps reasoning summaries as reasoning parts", () => {
    const reasoning = partsOf(session, "reasoning");
    assert.equal(reasoning.length, 3);
    assert.ok(reasoning[0]!.type === "reasoning" && reasoning[0]!.text.startsWith("**Locating the CSV splitting logic**"));
  });

  it("puts each token_count's last usage on the latest assistant message and the total on the session", () => {
    const withUsage = session.messages.filter((m) => m.usage).map((m) => [m.source.line, m.usage]);
    assert.deepEqual(withUsage, [
      [9, { inputTokens: 8412, cachedInputTokens: 3200, outputTokens: 161 }],
      [13, { inputTokens: 8790, cachedInputTokens: 8320, outputTokens: 512 }],
      [16, { inputTokens: 9460, cachedInputTokens: 8704, outputTokens: 58 }],
      [19, { inputTokens: 9702, cachedInputTokens: 9344, outputTokens: 96 }],
      [27, { inputTokens: 2140, cachedInputTokens: 0, outputTokens: 88 }],
      [30, { inputTokens: 2410, cachedInputTokens: 2048, outputTokens: 41 }],
    ]);
    assert.deepEqual(session.usage, { inputTokens: 40914, cachedInputTokens: 31616, outputTokens: 956 });
  });

  it("turns the compacted line into a codex_compacted compaction before the next message", () => {
    assert.equal(session.compactions.length, 1);
    const compaction = session.compactions[0]!;
    assert.equal(compaction.kind, "codex_compacted");
    assert.equal(compaction.beforeMessage, 13);
    assert.equal(compaction.source.line, 22);
    assert.equal(compaction.preTokens, 9702 + 96);
    assert.ok(compaction.summary?.startsWith("Summary of the session so far"));
    assert.equal(
      session.messages[13]!.parts[0]!.type === "text" && session.messages[13]!.parts[0]!.text,
      "Also accept files with Windows (CRLF) line endings.",
    );
  });
});

describe("codex_rollout_jsonl: detection", () => {
  it("recognises the sample rollout and Claude Code does not claim it", async () => {
    const { head } = await sourceFromFile(FIXTURE, FIXTURE_NAME);
    assert.ok(codexRolloutImporter.detect(FIXTURE_NAME, head) >= 0.9);
    assert.equal(claudeCodeImporter.detect(FIXTURE_NAME, head), 0);
    if (registry) assert.equal(registry.detectFormat(FIXTURE_NAME, head)?.format, "codex_rollout_jsonl");
  });

  for (const format of ["claude_code_jsonl", "tau_bench_traj", "aider_chat_md"]) {
    it(`does not claim ${format}`, async () => {
      const row = readManifest().find((r) => r.format === format);
      assert.ok(row, `a MANIFEST row of ${format}`);
      const { head } = await sourceFromFile(row.absolutePath, row.path);
      assert.equal(codexRolloutImporter.detect(row.path, head), 0);
    });
  }

  it("gives a rollout-named file with an overlong first line a weak score only", () => {
    const head = JSON.stringify(line("session_meta", { id: "x", base_instructions: { text: "y".repeat(70_000) } })).slice(0, 65536);
    const score = codexRolloutImporter.detect("rollout-2025-10-14T09-12-00-abc.jsonl", head);
    assert.ok(score > 0 && score < 0.9);
    assert.equal(codexRolloutImporter.detect("notes.jsonl", head), 0);
  });
});

describe("codex_rollout_jsonl: edge cases", () => {
  const meta = line("session_meta", { id: "s-1", model_provider: "openai" });
  const user = line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "run the tests" }] });
  const call = line("response_item", { type: "function_call", name: "shell", arguments: '{"command":["npm","test"]}', call_id: "call_1" });

  it("reports a truncated last line with its line number and keeps the lines before it", async () => {
    const text = jsonl(meta, user, call) + '{"timestamp":"2025-10-14T09:00:00.000Z","type":"response_item","payload":{"type":"function_call_out';
    const { sessions, issues } = await codexRolloutImporter.parse(sourceFromText("cut.jsonl", text));
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.file, i.line]),
      [["cut.jsonl", 4]],
    );
    assert.equal(sessions[0]!.messages.length, 2);
  });

  it("reports a line that is an array or a number, naming what was expected", async () => {
    const { sessions, issues } = await codexRolloutImporter.parse(sourceFromText("odd.jsonl", jsonl(meta, "[]", "3.5", user)));
    const errors = errorsOf(issues);
    assert.deepEqual(
      errors.map((i) => i.line),
      [2, 3],
    );
    assert.match(errors[0]!.message, /an array/);
    assert.match(errors[1]!.message, /a number/);
    for (const error of errors) assert.equal(error.expected, "{timestamp, type, payload}");
    assert.equal(sessions[0]!.messages.length, 1);
  });

  it("locates missing payloads, roles and call ids by field", async () => {
    const text = jsonl(
      { timestamp: "t", type: "response_item" },
      line("response_item", { type: "message", role: "robot", content: [] }),
      line("response_item", { type: "function_call_output", output: "x" }),
    );
    const { issues } = await codexRolloutImporter.parse(sourceFromText("bad.jsonl", text));
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.line, i.field]),
      [
        [1, "payload"],
        [2, "payload.role"],
        [3, "payload.call_id"],
      ],
    );
  });

  it("reads structured outputs with a success flag as errors when success is false", async () => {
    const output = line("response_item", { type: "function_call_output", call_id: "call_1", output: { content: "1 failing", success: false } });
    const { sessions } = await codexRolloutImporter.parse(sourceFromText("o.jsonl", jsonl(meta, user, call, output)));
    assert.deepEqual(sessions[0]!.messages[2]!.parts[0], { type: "tool_result", callId: "call_1", name: "shell", content: "1 failing", isError: true });
  });

  it("skips encrypted-only reasoning and warns once about unknown line types", async () => {
    const hidden = line("response_item", { type: "reasoning", summary: [], encrypted_content: "gAAAA" });
    const text = jsonl(meta, user, hidden, line("future_kind", {}), line("future_kind", {}));
    const { sessions, issues } = await codexRolloutImporter.parse(sourceFromText("r.jsonl", text));
    assert.equal(sessions[0]!.messages.length, 1);
    assert.deepEqual(
      issues.map((i) => [i.severity, i.line]),
      [["warning", 4]],
    );
  });

  it("falls back to the uuid in the file name when there is no session_meta", async () => {
    const name = "rollout-2025-10-14T09-12-00-0199c2a4-0000-7000-8000-000000000001.jsonl";
    const { sessions } = await codexRolloutImporter.parse(sourceFromText(name, jsonl(user)));
    assert.equal(sessions[0]!.id, "0199c2a4-0000-7000-8000-000000000001");
  });
});
