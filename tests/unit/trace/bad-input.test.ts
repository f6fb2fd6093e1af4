import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";

const dir = mkdtempSync(join(tmpdir(), "tracefold-bad-"));

function firstError(result: Awaited<ReturnType<typeof parseTrace>>) {
  return result.issues.find((i) => i.severity === "error");
}

test("a binary file is refused with a clear message, not parsed", async () => {
  const path = join(dir, "blob.jsonl");
  writeFileSync(path, Buffer.from([0x7b, 0x00, 0x01, 0x02, 0xff, 0x7d]));
  const result = await parseTrace(await sourceFromFile(path));
  assert.match(firstError(result)?.message ?? "", /binary/);
  assert.equal(result.sessions.length, 0);
});

test("invalid UTF-8 is reported with the line it occurs on", async () => {
  const path = join(dir, "latin1.jsonl");
  const good = '{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"hi"}}\n';
  writeFileSync(path, Buffer.concat([Buffer.from(good + good), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d, 0x0a])]));
  const result = await parseTrace(await sourceFromFile(path), { format: "claude_code_jsonl" });
  const error = firstError(result);
  assert.match(error?.message ?? "", /UTF-8/);
  assert.equal(error?.line, 3);
});

test("an unknown format names what would have been accepted", async () => {
  const result = await parseTrace(sourceFromText("notes.txt", "just some notes\nnothing to see\n"));
  assert.equal(result.format, "unknown");
  assert.match(firstError(result)?.expected ?? "", /claude_code_jsonl/);
});

test("a 5 MB single line is parsed without trouble", async () => {
  const content = "x".repeat(5 * 1024 * 1024);
  const line = JSON.stringify({ type: "user", sessionId: "big", uuid: "u1", message: { role: "user", content } });
  const path = join(dir, "big.jsonl");
  writeFileSync(path, `${line}\n`);
  const result = await parseTrace(await sourceFromFile(path));
  assert.equal(result.format, "claude_code_jsonl");
  assert.equal(result.sessions[0]?.messages[0]?.parts[0]?.type, "text");
});

test("a truncated JSON document reports the line of the syntax error", async () => {
  const result = await parseTrace(sourceFromText("traj.json", '[\n  {"task_id": 1, "traj": [\n    {"role": "user", "content": "hi"}\n'), {
    format: "tau_bench_traj",
  });
  const error = firstError(result);
  assert.ok(error, "an error is reported");
  assert.ok(error.line >= 3, `line ${error.line}`);
});
