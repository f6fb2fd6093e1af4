import assert from "node:assert/strict";
import { createReadStream, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { previewRedaction, redactOptionsOf } from "../../../../lib/redact";
import { redactUploadFile } from "../../../../server/trace/import/redact-upload-file";
import { TRACES_NEW_DIR } from "../../../helpers/traces";

/** The file as the browser reads it: decoded chunks, a BOM kept (ignoreBOM), lines split by previewRedaction. */
async function* decoded(path: string): AsyncIterable<string> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) yield decoder.decode(chunk, { stream: true });
  yield decoder.decode();
}

const RULES = redactOptionsOf({ emails: true, disabled: [], allow: [] });

for (const [name, path] of [
  [
    "a real tau2 simulation with e-mail addresses",
    resolve(
      TRACES_NEW_DIR,
      "tau2/blakeelias__tau2-bench/data/simulations/2025-10-07T07:44:20.888691_airline_relaxed_llm_agent_grok-4-fast-reasoning_user_simulator_grok-4-fast-reasoning.json",
    ),
  ],
  ["CRLF lines, a BOM, a multi-line key and no final newline", writeSample()],
] as const) {
  test(`the upload page's preview reports exactly what the upload redacts: ${name}`, async () => {
    const out = join(mkdtempSync(join(tmpdir(), "tracefold-preview-")), "redacted");
    const report = await redactUploadFile(path, out, RULES);
    const preview = await previewRedaction(decoded(path), RULES, Number.MAX_SAFE_INTEGER);
    assert.ok(report.length > 0);
    assert.equal(preview.count, report.length);
    assert.deepEqual(
      preview.findings.map((f) => [f.line, f.kind, f.fingerprint]),
      report.map((r) => [r.line, r.kind, r.fingerprint]),
    );
  });
}

function writeSample(): string {
  const path = join(mkdtempSync(join(tmpdir(), "tracefold-preview-")), "sample.jsonl");
  const lines = ["\uFEFFpassword: hunter2", "-----BEGIN PRIVATE KEY-----", "MIIEvQ", "-----END PRIVATE KEY-----", "mail dev@example.com", "token=abc123def\r"];
  writeFileSync(path, lines.join("\r\n"));
  return path;
}
