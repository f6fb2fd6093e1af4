import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAnalyzer } from "../../../lib/analysis/analyze";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { countResponses } from "../../helpers/claude-code-raw";
import { claudeRows, errorsOf, parseClaudeCodeTrace as parse, partsOf } from "../../helpers/claude-code-parse";

/* Every claude_code_jsonl file of ../shared/traces parses to the counts its MANIFEST row gives. */
describe("claude_code_jsonl: real transcripts match the MANIFEST", () => {
  it("has claude_code_jsonl rows to check", () => assert.ok(claudeRows.length >= 10));

  for (const row of claudeRows) {
    it(row.path, async () => {
      const { sessions, issues } = await parse(await sourceFromFile(row.absolutePath, row.path));
      assert.deepEqual(errorsOf(issues), []);
      const expected = countResponses(row.absolutePath);
      assert.equal(sessions.length, row.sessions + expected.inlineThreads, "the MANIFEST's sessions, plus one per inline sidechain thread");
      const analyzer = createAnalyzer({ tokenizer: "chars4" });
      const stats = sessions.map((s) => analyzer.analyze(s).stats);
      assert.equal(
        stats.reduce((n, s) => n + s.records, 0),
        row.messages,
        "records (the MANIFEST's messages column counts records)",
      );
      assert.equal(expected.records, row.messages, "the raw count agrees with the MANIFEST");
      assert.equal(
        sessions.reduce((n, s) => n + s.messages.length, 0),
        expected.messages,
        "messages: one per API response",
      );
      assert.equal(
        stats.reduce((n, s) => n + s.messages, 0),
        expected.messages,
        "stats.messages",
      );
      assert.equal(partsOf(sessions, "tool_call").length, row.toolCalls, "tool_call parts");
      assert.equal(partsOf(sessions, "tool_result").length, row.toolResults, "tool_result parts");
      assert.deepEqual([...new Set(sessions.flatMap((s) => s.models))], row.models, "the models of the file (its sessions share them)");
      assert.equal(partsOf(sessions, "tool_result").filter((p) => p.type === "tool_result" && p.orphan).length, 0, "every result links to its call");
      for (const session of sessions) session.messages.forEach((m, i) => assert.equal(m.index, i));
    });
  }
});
