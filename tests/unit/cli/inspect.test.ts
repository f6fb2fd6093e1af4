import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { countResponses } from "../../helpers/claude-code-raw";
import { readManifest, TRACES_DIR } from "../../helpers/traces";

const BIN = resolve(__dirname, "../../../cli/bin.mjs");

function tracefold(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test("inspect --json prints exactly one object with the contract's fields for every file", () => {
  const run = tracefold("inspect", TRACES_DIR, "--json");
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { files: Record<string, unknown>[] };
  const manifest = readManifest();
  assert.equal(report.files.length, manifest.length);
  for (const file of report.files) {
    assert.deepEqual(Object.keys(file).sort(), [
      "errors",
      "format",
      "messages",
      "nativeCompactions",
      "path",
      "records",
      "sessions",
      "tokens",
      "toolCalls",
      "toolResults",
    ]);
    const entry = manifest.find((e) => String(file.path).endsWith(e.path))!;
    assert.equal(file.format, entry.format);
    // The MANIFEST counts a Claude Code file's sessions without its inline sidechain threads, each a session here.
    let inlineThreads = 0;
    if (entry.format === "claude_code_jsonl") {
      assert.equal(file.records, entry.messages, `${entry.path}: records`);
      assert.ok(Number(file.messages) <= Number(file.records), `${entry.path}: split responses merged`);
      inlineThreads = countResponses(entry.absolutePath).inlineThreads;
    } else assert.equal(file.records, file.messages, `${entry.path}: one record per message`);
    assert.equal(file.sessions, entry.sessions + inlineThreads);
    assert.equal(file.toolCalls, entry.toolCalls);
    assert.ok(Number(file.tokens) > 0);
  }
});

test("inspect exits non-zero and locates the error when one file is bad", () => {
  const dir = mkdtempSync(join(tmpdir(), "tracefold-cli-"));
  const bad = join(dir, "bad.jsonl");
  writeFileSync(bad, '{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}\n{"type":"assist');
  const run = tracefold("inspect", bad, "--json");
  assert.equal(run.code, 1);
  const report = JSON.parse(run.stdout) as { files: { errors: { line: number; message: string }[] }[] };
  assert.equal(report.files[0]!.errors[0]!.line, 2);
});

test("a bad flag is a usage error (exit 2) without a stack trace", () => {
  const run = tracefold("inspect", "--format", "nope", TRACES_DIR);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /unknown --format nope/);
  assert.doesNotMatch(run.stderr, /at .*\.ts:\d+/);
});

test("compact --json follows the documented contract", () => {
  const file = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl");
  const run = tracefold("compact", file, "--policy", "tool-prune", "--cut", "12", "--json");
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  for (const key of ["policy", "session", "cut", "before", "after", "prunePct", "actions", "rejected", "summary", "view", "sidecars", "providerFixes"])
    assert.ok(key in out, key);
  assert.deepEqual(Object.keys(out.providerFixes).sort(), ["anthropic", "openai"]);
  assert.equal(out.cut.index, 12);
  assert.equal(out.before.tokens, out.cut.tokens);
  for (const message of out.view)
    for (const part of message.parts) {
      assert.ok(["text", "reasoning", "tool_call", "tool_result", "image", "other"].includes(part.type));
      if (part.type === "tool_call") assert.equal(typeof part.id, "string");
      if (part.type === "tool_result") assert.equal(typeof part.callId, "string");
    }
});

test("compact --json reports no provider fix for self-gc on a real Claude Code session with parallel tool calls", () => {
  // Issue 17: this session's split API responses made the Provider panel list 80 fixes (40 per provider).
  const file = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
  const run = tracefold("compact", file, "--policy", "self-gc", "--json");
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { prunePct: number; providerFixes: { openai: string[]; anthropic: string[] } };
  assert.ok(out.prunePct > 0, "self-gc compacted the prefix");
  assert.deepEqual(out.providerFixes, { openai: [], anthropic: [] });
});

test("policies --json lists ids, families, sources and params", () => {
  const run = tracefold("policies", "--json");
  assert.equal(run.code, 0);
  const { policies } = JSON.parse(run.stdout) as { policies: { id: string; family: string; source: string; params: object }[] };
  assert.ok(policies.some((p) => p.id === "none"));
  for (const p of policies) assert.deepEqual(Object.keys(p).sort(), ["family", "id", "params", "source"]);
});
