import assert from "node:assert/strict";
import { test } from "node:test";
import { detectFormat } from "../../../lib/trace/parse-trace";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { countResponses } from "../../helpers/claude-code-raw";
import { readAllManifests } from "../../helpers/traces-new";

test("auto-detection picks the MANIFEST format for every real trace (../shared/traces and the imported files of traces-new)", async () => {
  for (const entry of readAllManifests()) {
    const source = await sourceFromFile(entry.absolutePath, entry.path);
    assert.equal(detectFormat(entry.path, source.head)?.format, entry.format, entry.path);
  }
});

test("every real trace imports with the MANIFEST's session and tool-call counts", async () => {
  const { parseTrace } = await import("../../../lib/trace/parse-trace");
  for (const entry of readAllManifests()) {
    const parsed = await parseTrace(await sourceFromFile(entry.absolutePath, entry.path));
    assert.deepEqual(
      parsed.issues.filter((i) => i.severity === "error"),
      [],
      entry.path,
    );
    // The MANIFEST counts a Claude Code file's sessions without its inline sidechain threads, each a session here.
    const inlineThreads = entry.format === "claude_code_jsonl" ? countResponses(entry.absolutePath).inlineThreads : 0;
    assert.equal(parsed.sessions.length, entry.sessions + inlineThreads, `${entry.path} sessions`);
    const calls = parsed.sessions.reduce((n, s) => n + s.messages.reduce((k, m) => k + m.parts.filter((p) => p.type === "tool_call").length, 0), 0);
    assert.equal(calls, entry.toolCalls, `${entry.path} tool calls`);
  }
});
