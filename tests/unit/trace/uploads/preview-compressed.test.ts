import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { test } from "node:test";
import { strToU8, zipSync } from "fflate";
import { previewFile } from "../../../../components/trace/upload/preview-file";
import { redactOptionsOf } from "../../../../lib/redact";
import { redactUploadFile } from "../../../../server/trace/import/redact-upload-file";
import { expandArchive } from "../../../../server/trace/files/expand-archive";
import { TRACES_NEW_DIR } from "../../../helpers/traces";

/**
 * The upload page previews a compressed file as the server redacts it: expanded (issue 15 item 5).
 * The preview runs previewFile on a File, as the browser does (Node has File, DecompressionStream
 * and TextDecoderStream); the server side is expand-archive + redact-upload-file.
 */
const RULES = { emails: true, disabled: [], allow: [] };
const LIMIT = 64 << 20;

async function serverFindings(name: string, bytes: Uint8Array): Promise<[number, string, string][]> {
  const dir = mkdtempSync(join(tmpdir(), "tracefold-preview-"));
  writeFileSync(join(dir, "in"), bytes);
  await expandArchive(join(dir, "in"), join(dir, "plain"), name, { maxExpandedBytes: LIMIT, maxRatio: 200, ratioFloorBytes: LIMIT });
  const report = await redactUploadFile(join(dir, "plain"), join(dir, "out"), redactOptionsOf(RULES));
  return report.map((r) => [r.line, r.kind, r.fingerprint]);
}

test("a gzip'd real trace: the preview finds exactly what the upload redacts", async () => {
  const plain = readFileSync(
    resolve(
      TRACES_NEW_DIR,
      "tau2/blakeelias__tau2-bench/data/simulations/2025-10-07T07:44:20.888691_airline_relaxed_llm_agent_grok-4-fast-reasoning_user_simulator_grok-4-fast-reasoning.json",
    ),
  );
  const gz = gzipSync(plain);
  const expected = await serverFindings("t.json.gz", gz);
  assert.ok(expected.length > 0);
  const preview = await previewFile(new File([gz], "t.json.gz"), RULES, LIMIT);
  assert.deepEqual(
    preview.findings.map((f) => [f.line, f.kind, f.fingerprint]),
    expected.slice(0, preview.findings.length),
  );
  assert.equal(preview.count, expected.length);
});

test("an Inspect .eval: previewed as the JSON log the server imports; a bomb fails the preview with the limit", async () => {
  const zip = zipSync({
    "header.json": strToU8(JSON.stringify({ version: 2, eval: { task: "t" } })),
    "samples/1_epoch_1.json": strToU8(JSON.stringify({ id: 1, messages: [{ role: "user", content: "mail ops@example.com" }] })),
  });
  const expected = await serverFindings("x.eval", zip);
  const preview = await previewFile(new File([zip], "x.eval"), RULES, LIMIT);
  assert.deepEqual(
    preview.findings.map((f) => [f.line, f.kind, f.fingerprint]),
    expected,
  );
  assert.equal(expected.length, 1);
  const bomb = zipSync({ "header.json": strToU8("{}"), "samples/1_epoch_1.json": new Uint8Array(2 << 20) });
  await assert.rejects(previewFile(new File([bomb], "b.eval"), RULES, 1 << 20), { message: /^b\.eval: expands past 1 MB/ });
});
