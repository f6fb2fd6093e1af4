import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createAnalyzer } from "../../lib/analysis/analyze";
import type { Session } from "../../lib/trace/model";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { writeSessions } from "../../server/trace/import/write-sessions";
import type { BlobStore } from "../../server/storage/blob-store";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const COMPACTED = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
const RACED = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl");
const SMALL = join(TRACES_DIR, "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/hello-world-script/transcript.jsonl");

for (const engine of ENGINES) {
  describe(`import on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
    });
    after(async () => {
      await t.close();
    });

    test("a real Claude Code session is stored with its messages, objects and native compaction", async () => {
      const outcome = await importTraceFile({ db: t.db, store: t.store, path: COMPACTED });
      assert.equal(outcome.status, "imported");
      if (outcome.status !== "imported") return;
      const session = await t.db.traceSession.findFirstOrThrow({ where: { uploadId: outcome.uploadId }, include: { compactions: true } });
      assert.equal(session.format, "claude_code_jsonl");
      assert.equal(session.toolCalls, 186);
      assert.equal(await t.db.traceMessage.count({ where: { sessionId: session.id } }), session.messageCount);
      assert.equal(await t.db.contextObjectRow.count({ where: { sessionId: session.id } }), session.objectCount);
      assert.equal(session.compactions.length, 1);
      assert.ok((session.compactions[0]!.preTokens ?? 0) > 100_000);
      const upload = await t.db.upload.findUniqueOrThrow({ where: { id: outcome.uploadId } });
      assert.ok(await t.store.exists(upload.storageKey), "the raw upload is kept");
    });

    test("uploading the same bytes again is detected, not duplicated", async () => {
      const again = await importTraceFile({ db: t.db, store: t.store, path: COMPACTED, fileName: "renamed.jsonl" });
      assert.equal(again.status, "duplicate");
      assert.equal(await t.db.upload.count({ where: { fileName: "renamed.jsonl" } }), 0);
    });

    test("object ids are the same when the same trace is imported into another database", async () => {
      const other = await createTestDb(engine);
      try {
        const a = await importTraceFile({ db: t.db, store: t.store, path: SMALL });
        const b = await importTraceFile({ db: other.db, store: other.store, path: SMALL });
        assert.ok(a.status === "imported" && b.status === "imported");
        const ids = async (x: TestDb, uploadId: string) =>
          (await x.db.contextObjectRow.findMany({ where: { session: { uploadId } }, orderBy: [{ firstMessage: "asc" }, { objectId: "asc" }] })).map(
            (o) => `${o.objectId}@${o.firstMessage}:${o.tokens}`,
          );
        assert.deepEqual(await ids(t, a.uploadId), await ids(other, b.uploadId));
      } finally {
        await other.close();
      }
    });

    test("a file with errors leaves nothing behind", async () => {
      const bad = join(t.dataDir, "bad.jsonl");
      writeFileSync(bad, '{"type":"user","sessionId":"x","message":{"role":"user","content":"hi"},"uuid":"u1"}\n{"type":"assistant","sessionId":"x",\n');
      const before = await t.db.upload.count();
      const outcome = await importTraceFile({ db: t.db, store: t.store, path: bad, format: "claude_code_jsonl" });
      assert.equal(outcome.status, "failed");
      if (outcome.status === "failed") assert.equal(outcome.errors[0]?.line, 2);
      assert.equal(await t.db.upload.count(), before);
    });

    test("two imports of the same bytes racing: the loser answers duplicate and leaves the winner's blob in place", async () => {
      // The loser passes the duplicate check and creates the blob; the winner finds the blob there,
      // commits first, and the loser's transaction then fails on the unique sha256.
      let winner: Awaited<ReturnType<typeof importTraceFile>> | undefined;
      const racingStore: BlobStore = {
        ...t.store,
        putFile: async (path, kind) => {
          const put = await t.store.putFile(path, kind);
          winner = await importTraceFile({ db: t.db, store: t.store, path: RACED, fileName: "winner.jsonl" });
          return put;
        },
      };
      const loser = await importTraceFile({ db: t.db, store: racingStore, path: RACED, fileName: "loser.jsonl" });
      assert.equal(winner?.status, "imported");
      assert.equal(loser.status, "duplicate");
      assert.ok(winner?.status === "imported" && loser.status === "duplicate" && loser.uploadId === winner.uploadId);
      const upload = await t.db.upload.findUniqueOrThrow({ where: { id: winner.uploadId } });
      assert.ok(await t.store.exists(upload.storageKey), "the winner's stored bytes survive the loser's clean-up");
    });

    test("a write that fails half-way rolls back every row of the upload", async () => {
      const analyzer = createAnalyzer({ tokenizer: "chars4" });
      const session: Session = {
        id: "dup",
        format: "tracefold_jsonl",
        title: "dup",
        models: [],
        compactions: [],
        messages: [
          { index: 0, role: "user", parts: [{ type: "text", text: "a" }], source: { file: "f", line: 1 } },
          { index: 0, role: "assistant", parts: [{ type: "text", text: "b" }], source: { file: "f", line: 2 } },
        ],
      };
      const sessionsBefore = await t.db.traceSession.count();
      await assert.rejects(
        writeSessions(t.db, {
          upload: {
            sha256: "f".repeat(64),
            fileName: "dup.jsonl",
            bytes: 2,
            format: "tracefold_jsonl",
            storageKey: "uploads/ff/" + "f".repeat(64),
            warnings: [],
          },
          sessions: [analyzer.analyze(session)],
        }),
      );
      assert.equal(await t.db.upload.count({ where: { sha256: "f".repeat(64) } }), 0);
      assert.equal(await t.db.traceSession.count(), sessionsBefore);
    });
  });
}
