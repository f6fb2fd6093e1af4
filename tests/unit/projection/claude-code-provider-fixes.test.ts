import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { safeCutPoints } from "../../../lib/policies/cut-points";
import { nonePolicy } from "../../../lib/policies/none";
import { runPolicy } from "../../../lib/policies/run-policy";
import { projectForProviders } from "../../../lib/projection/provider-fixes";
import { toAnthropicMessages, toOpenAiMessages } from "../../../lib/projection/provider";
import { createAnalyzer } from "../../../lib/trace/analyze";
import { claudeCodeImporter } from "../../../lib/trace/importers/claude-code";
import { sourceFromFile } from "../../../server/files/file-source";
import { assertValidAnthropic, assertValidOpenAi } from "../policies/self-gc/provider-validators";
import { readManifest } from "../../helpers/traces";

/**
 * Issue 17 item 3: Claude Code writes one API response as one record per content block, so parallel
 * tool calls used to arrive as consecutive assistant messages and the provider projections removed
 * calls and turned their results into text. Projecting the `none` policy's view (the prefix as
 * recorded) of a real Claude Code session must need no fix at all, at every safe cut.
 *
 * Inline sidechains (CLI 1.0.x writes a Task subagent's own conversation into the main file, between
 * the Task call and its result) are imported as sessions of their own, so every session of a file —
 * main thread and subagent threads alike — is checked, with nothing filtered out of its view.
 */

const rows = readManifest().filter((row) => row.format === "claude_code_jsonl");
const analyzer = createAnalyzer({ tokenizer: "chars4" });

describe("claude_code_jsonl: the none projection needs no provider fix", () => {
  it("covers every Claude Code file of the MANIFEST", () => assert.ok(rows.length >= 13, `${rows.length} files`));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions } = await claudeCodeImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      const name = row.path.split("/").pop()!;
      const main = sessions.filter((s) => s.parentId === undefined);
      assert.ok(main.every((s) => s.messages.every((m) => m.meta?.sidechain !== true)), "no sidechain record in a main session");
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
