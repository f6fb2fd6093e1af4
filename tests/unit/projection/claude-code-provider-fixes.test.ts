import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { safeCutPoints } from "../../../lib/policies/cut-points";
import { nonePolicy } from "../../../lib/policies/none";
import { runPolicy } from "../../../lib/policies/run-policy";
import { projectForProviders } from "../../../lib/projection/provider-fixes";
import { toAnthropicMessages, toOpenAiMessages } from "../../../lib/projection/provider";
import type { ViewMessage } from "../../../lib/projection/types";
import { createAnalyzer } from "../../../lib/trace/analyze";
import { claudeCodeImporter } from "../../../lib/trace/importers/claude-code";
import type { Session } from "../../../lib/trace/model";
import { sourceFromFile } from "../../../server/files/file-source";
import { assertValidAnthropic, assertValidOpenAi } from "../policies/self-gc/provider-validators";
import { readManifest } from "../../helpers/traces";

/**
 * Issue 17 item 3: Claude Code writes one API response as one record per content block, so parallel
 * tool calls used to arrive as consecutive assistant messages and the provider projections removed
 * calls and turned their results into text. Projecting the `none` policy's view (the prefix as
 * recorded) of a real Claude Code session must need no fix at all, at every safe cut.
 *
 * Inline sidechains (CLI 1.0.x writes a Task subagent's own conversation into the main file) are a
 * different conversation the main model never saw; they sit between a Task call and its result.
 * The main agent's view leaves them out here; `INLINE_SIDECHAIN_FILES` pins which files have them.
 */
const INLINE_SIDECHAIN_FILES = ["fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"];

const rows = readManifest().filter((row) => row.format === "claude_code_jsonl");
const analyzer = createAnalyzer({ tokenizer: "chars4" });

/** Inline sidechain messages of a main session (a subagent file's session is all sidechain and kept). */
function isInlineSidechain(session: Session, origin: ViewMessage["origin"]): boolean {
  return session.parentId === undefined && typeof origin === "number" && session.messages[origin]!.meta?.sidechain === true;
}

describe("claude_code_jsonl: the none projection needs no provider fix", () => {
  it("covers every Claude Code file of the MANIFEST", () => assert.ok(rows.length >= 13, `${rows.length} files`));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions } = await claudeCodeImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      const name = row.path.split("/").pop()!;
      const hasInline = sessions.some((s) => s.messages.some((m) => isInlineSidechain(s, m.index)));
      assert.equal(hasInline, INLINE_SIDECHAIN_FILES.includes(name), "inline sidechains only where pinned");
      for (const session of sessions) {
        const { index } = analyzer.analyze(session);
        const tokenizer = analyzer.tokenizerFor(session);
        const cuts = safeCutPoints(session);
        assert.ok(cuts.length > 0, "has a safe cut");
        for (const cut of cuts) {
          const result = await runPolicy(nonePolicy, { session, index, cut, window: index.prefixTokens[cut]! * 2, tokenizer });
          const view = result.view.filter((m) => !isInlineSidechain(session, m.origin));
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
