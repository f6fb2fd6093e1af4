import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseTrace } from "../../lib/trace/parse-trace";
import { sourceFromFile } from "../../server/trace/files/file-source";
import { loadAnalyzedSession } from "../../server/trace/session/load-analyzed-session";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { readManifest, TRACES_DIR } from "../helpers/traces";

/**
 * A Claude Code session whose API responses are split over several records (one of them with a
 * tool result written between two records of the response). Stored and loaded back, every merged
 * message keeps the lines of all its records, so the stored session is the imported one.
 */
const TRACE = "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl";

for (const engine of ENGINES) {
  describe(`merged Claude Code responses stored and loaded on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
    });
    after(async () => t?.close());

    test("the stored session keeps each merged message's records; its record count is the MANIFEST's", async () => {
      const path = join(TRACES_DIR, TRACE);
      const outcome = await importTraceFile({ db: t.db, store: t.store, path });
      assert.ok(outcome.status === "imported", JSON.stringify(outcome));
      const loaded = (await loadAnalyzedSession(t.db, outcome.sessions[0]!.id))!;
      const parsed = (await parseTrace(await sourceFromFile(path))).sessions[0]!;
      const merged = parsed.messages.filter((m) => m.records);
      assert.ok(merged.length > 0, "the trace has split responses");
      assert.deepEqual(
        loaded.session.messages.map((m) => m.records ?? null),
        parsed.messages.map((m) => m.records ?? null),
      );
      assert.equal(loaded.stats.messages, parsed.messages.length);
      assert.equal(loaded.stats.records, readManifest().find((r) => r.path === TRACE)!.messages);
      const row = await t.db.traceMessage.findFirstOrThrow({ where: { sessionId: outcome.sessions[0]!.id, index: merged[0]!.index } });
      assert.equal(row.sourceLine, merged[0]!.source.line, "the row's source line is the first record's");
    });
  });
}
