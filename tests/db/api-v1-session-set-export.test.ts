import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { otelGenaiImporter } from "../../lib/trace/importers/otel-genai";
import { tracefoldJsonlImporter } from "../../lib/trace/importers/tracefold-jsonl";
import type { Session } from "../../lib/trace/model";
import { sourceFromText } from "../../lib/trace/source";
import { exportSessionSet, selectExportSessions, sessionSetFile } from "../../server/ingest/api-v1/export-session-set";
import { listSessionsPage } from "../../server/ingest/api-v1/list-sessions-page";
import { SessionListQuerySchema, SessionSetExportQuerySchema } from "../../server/ingest/api-v1/schemas";
import { loadAnalyzedSession } from "../../server/trace/session/load-analyzed-session";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** Three real Aider sessions in one file, and one real Claude Code session. */
const AIDER = join(TRACES_DIR, "aider_chat_md/AlexShchuka__mozgoslav/.aider.chat.history.md");
const CLAUDE = join(TRACES_DIR, "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/hello-world-script/transcript.jsonl");

const setQuery = (q: Record<string, string>) => SessionSetExportQuerySchema.parse(q);
const texts = (s: Session) => s.messages.map((m) => [m.role, m.parts.map((p) => (p.type === "text" ? p.text : p.type)).join("|")]);

async function exportText(t: TestDb, q: Record<string, string>): Promise<{ ids: string[]; text: string }> {
  const selection = await selectExportSessions(t.db, setQuery(q));
  assert.ok(selection.ok, JSON.stringify(selection));
  let text = "";
  for await (const chunk of exportSessionSet(t.db, selection.ids, setQuery(q).as)) text += chunk;
  return { ids: selection.ids, text };
}

for (const engine of ENGINES) {
  describe(`a set of sessions exported as one file on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
      for (const path of [AIDER, CLAUDE]) assert.equal((await importTraceFile({ db: t.db, store: t.store, path })).status, "imported");
    });
    after(() => t.close());

    test("a format filter selects what the list selects, and the JSONL file imports back into those sessions", async () => {
      const { ids, text } = await exportText(t, { format: "aider_chat_md" });
      const listed = await listSessionsPage(t.db, SessionListQuerySchema.parse({ format: "aider_chat_md" }));
      assert.ok(listed.ok);
      assert.deepEqual(
        ids,
        listed.data.map((s) => s.id),
      );
      assert.equal(ids.length, 3);
      const parsed = await tracefoldJsonlImporter.parse(sourceFromText("set.tracefold.jsonl", text));
      assert.deepEqual(
        parsed.issues.filter((i) => i.severity === "error"),
        [],
      );
      assert.equal(parsed.sessions.length, 3);
      for (const [i, id] of ids.entries()) assert.deepEqual(texts(parsed.sessions[i]!), texts((await loadAnalyzedSession(t.db, id))!.session));
    });

    test("ids export exactly those sessions, newest first; the OTLP file is one request per line and imports back one session each", async () => {
      const all = await listSessionsPage(t.db, SessionListQuerySchema.parse({}));
      assert.ok(all.ok);
      const picked = [all.data[3]!.id, all.data[0]!.id];
      const { ids, text } = await exportText(t, { ids: picked.join(","), as: "otlp" });
      assert.deepEqual(ids, [all.data[0]!.id, all.data[3]!.id]);
      const lines = text.trimEnd().split("\n");
      assert.equal(lines.length, 2);
      for (const line of lines) assert.ok(Array.isArray(JSON.parse(line).resourceSpans));
      const parsed = await otelGenaiImporter.parse(sourceFromText("set.otlp.jsonl", text));
      assert.equal(parsed.sessions.length, 2);
      for (const [i, id] of ids.entries()) {
        const stored = (await loadAnalyzedSession(t.db, id))!.session;
        const back = parsed.sessions[i]!;
        assert.equal(
          back.messages.filter((m) => m.role === "assistant").length,
          stored.messages.filter((m) => m.role === "assistant").length,
          `assistant turns of ${id}`,
        );
      }
      assert.deepEqual(sessionSetFile(2, "otlp"), { fileName: "sessions-2.otlp.jsonl", contentType: "application/x-ndjson; charset=utf-8" });
    });

    test("an unknown id is refused by name and nothing is exported; ids with filters, or no ids, are refused by field", async () => {
      const all = await listSessionsPage(t.db, SessionListQuerySchema.parse({}));
      assert.ok(all.ok);
      const refused = await selectExportSessions(t.db, setQuery({ ids: `${all.data[0]!.id},no-such-session` }));
      assert.deepEqual(refused, { ok: false, status: 404, code: "not_found", message: "no such session: no-such-session" });
      const both = SessionSetExportQuerySchema.safeParse({ ids: all.data[0]!.id, format: "aider_chat_md" });
      assert.equal(
        both.success ? "" : `${both.error.issues[0]!.path.join(".")}: ${both.error.issues[0]!.message}`,
        "ids: give ids or the filters q and format, not both",
      );
      const empty = SessionSetExportQuerySchema.safeParse({ ids: " , " });
      assert.equal(empty.success ? "" : empty.error.issues[0]!.message, "ids names at least one session");
      const as = SessionSetExportQuerySchema.safeParse({ as: "csv" });
      assert.equal(as.success ? "" : as.error.issues[0]!.message, "as must be jsonl or otlp");
    });

    test("no filter exports every session; a text filter matches titles and external ids as the list does", async () => {
      assert.equal((await exportText(t, {})).ids.length, 4);
      const claude = await listSessionsPage(t.db, SessionListQuerySchema.parse({ format: "claude_code_jsonl" }));
      assert.ok(claude.ok);
      const q = claude.data[0]!.externalId.slice(0, 8).toUpperCase();
      const listed = await listSessionsPage(t.db, SessionListQuerySchema.parse({ q }));
      assert.ok(listed.ok);
      assert.deepEqual(
        (await exportText(t, { q })).ids,
        listed.data.map((s) => s.id),
      );
    });
  });
}
