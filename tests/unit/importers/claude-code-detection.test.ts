import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { MIN_DETECT_SCORE } from "../../../lib/trace/importer";
import { claudeCodeImporter } from "../../../lib/trace/importers/claude-code";
import { codexRolloutImporter } from "../../../lib/trace/importers/codex-rollout";
import { HEAD_BYTES, sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { claudeRows, jsonl, loadRegistry, manifest } from "../../helpers/claude-code-parse";

/* Which files claude_code_jsonl claims: every real transcript, no other format's files, long first lines, cut heads. */
let registry: Awaited<ReturnType<typeof loadRegistry>>;
before(async () => {
  registry = await loadRegistry();
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
