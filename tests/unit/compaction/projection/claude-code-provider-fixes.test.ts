import assert from "node:assert/strict";
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { safeCutPoints } from "../../../../lib/compaction/policies/cut-points";
import { nonePolicy } from "../../../../lib/compaction/policies/none";
import { runPolicy } from "../../../../lib/compaction/policies/run-policy";
import { projectForProviders } from "../../../../lib/compaction/projection/provider-fixes";
import { toAnthropicMessages, toOpenAiMessages } from "../../../../lib/compaction/projection/provider";
import { createAnalyzer } from "../../../../lib/analysis/analyze";
import { claudeCodeImporter } from "../../../../lib/trace/importers/claude-code";
import { HEAD_BYTES } from "../../../../lib/trace/source";
import { sourceFromFile } from "../../../../server/trace/files/file-source";
import { assertValidAnthropic, assertValidOpenAi } from "../policies/self-gc/provider-validators";
import { readManifest, TRACES_NEW_DIR } from "../../../helpers/traces";

/**
 * Issue 17 item 3: Claude Code writes one API response as one record per content block, so parallel
 * tool calls used to arrive as consecutive assistant messages and the provider projections removed
 * calls and turned their results into text. Projecting the `none` policy's view (the prefix as
 * recorded) of a real Claude Code session must need no fix at all, at every safe cut.
 *
 * Inline sidechains (CLI 1.0.x writes a Task subagent's own conversation into the main file, between
 * the Task call and its result) are imported as sessions of their own, so every session of a file —
 * main thread and subagent threads alike — is checked, with nothing filtered out of its view.
 * Every Claude Code file of ../shared/traces (its MANIFEST) and of ../shared/traces-new (found by
 * detection: that set has no MANIFEST format column for Claude Code) is read.
 */

/** Files under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

/** The first bytes of a file, as an upload's format detection sees them. */
function headOf(path: string): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    return buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** The Claude Code files of ../shared/traces-new, by the importer's own detection. */
const newRows = filesUnder(TRACES_NEW_DIR)
  .map((absolutePath) => ({ absolutePath, path: `traces-new/${relative(TRACES_NEW_DIR, absolutePath)}` }))
  .filter((file) => claudeCodeImporter.detect(file.path, headOf(file.absolutePath)) >= 0.9);
const rows = [...readManifest().filter((row) => row.format === "claude_code_jsonl"), ...newRows];
const analyzer = createAnalyzer({ tokenizer: "chars4" });

describe("claude_code_jsonl: the none projection needs no provider fix", () => {
  it("covers every Claude Code file of the MANIFEST and of traces-new", () =>
    assert.ok(rows.length >= 13 + newRows.length, `${rows.length} files (${newRows.length} of traces-new)`));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions } = await claudeCodeImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      const name = row.path.split("/").pop()!;
      const main = sessions.filter((s) => s.parentId === undefined);
      assert.ok(
        main.every((s) => s.messages.every((m) => m.meta?.sidechain !== true)),
        "no sidechain record in a main session",
      );
      for (const session of sessions) {
        const { index } = analyzer.analyze(session);
        const tokenizer = analyzer.tokenizerFor(session);
        const cuts = safeCutPoints(session);
        assert.ok(cuts.length > 0, "has a safe cut");
        for (const cut of cuts) {
          const result = await runPolicy(nonePolicy, { session, index, cut, window: index.prefixTokens[cut]! * 2, tokenizer });
          const view = result.view;
          const { fixes } = projectForProviders(view);
          assert.deepEqual(fixes, { openai: [], anthropic: [] }, `${session.id} at cut ${cut}`);
          if (cut === cuts.at(-1)) {
            assertValidOpenAi(toOpenAiMessages(view), `${name} cut ${cut}`);
            assertValidAnthropic(toAnthropicMessages(view), `${name} cut ${cut}`);
          }
        }
      }
    });
  }
});
