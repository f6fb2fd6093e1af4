import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runSessionPolicy } from "../../server/compaction/run-session-policy";
import { deleteSession } from "../../server/ingest/retention/delete-session";
import { deleteUploads, uploadsOlderThan } from "../../server/ingest/retention/delete-uploads";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** A real Claude Code session long enough for oldest-turn to fold (and store sidecars) at cut 211. */
const COMPACTED = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
/** Real Aider histories with several sessions in one file. */
const AIDER = join(TRACES_DIR, "aider_chat_md/AlexShchuka__mozgoslav/.aider.chat.history.md");
const AIDER_2 = join(TRACES_DIR, "aider_chat_md/AFI-Protocol__afi-core/.aider.chat.history.md");

async function importOne(t: TestDb, path: string) {
  const outcome = await importTraceFile({ db: t.db, store: t.store, path });
  assert.equal(outcome.status, "imported");
  if (outcome.status !== "imported") throw new Error("not imported");
  return outcome;
}

const queuedRunOver = (t: TestDb, sessionIds: string[]) =>
  t.db.evalRun.create({ data: { name: "busy run", settings: "{}", sessionIds: JSON.stringify(sessionIds), status: "queued" } });

for (const engine of ENGINES) {
  describe(`deletion and retention on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
    });
    after(() => t.close());

    test("deleting the only session of an upload removes the upload, its rows, its sidecars and their blobs; results stay", async () => {
      const imported = await importOne(t, COMPACTED);
      const sessionId = imported.sessions[0]!.id;
      const replay = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "oldest-turn", cut: 211 });
      assert.ok(replay.ok);
      const sidecars = await t.db.sidecar.findMany({ where: { sessionId } });
      assert.ok(sidecars.length > 0, "the replay stored sidecars");
      const upload = await t.db.upload.findUniqueOrThrow({ where: { id: imported.uploadId } });
      const run = await t.db.evalRun.create({ data: { name: "finished", settings: "{}", sessionIds: JSON.stringify([sessionId]), status: "done" } });
      await t.db.evalResult.create({ data: { runId: run.id, unitKey: `${sessionId}#211#none`, sessionId, cut: 211, cutReason: "test", policy: "none" } });

      const outcome = await deleteSession(t.db, t.store, sessionId, { freshMs: 0 });
      assert.deepEqual(outcome, { ok: true, sessionId, upload: "deleted", fileName: upload.fileName, otherSessions: 0, blobsRemoved: 1 + sidecars.length });
      assert.equal(await t.db.traceSession.count({ where: { id: sessionId } }), 0);
      assert.equal(await t.db.traceMessage.count({ where: { sessionId } }), 0);
      assert.equal(await t.db.sidecar.count({ where: { sessionId } }), 0);
      assert.equal(await t.store.exists(upload.storageKey), false);
      for (const s of sidecars) assert.equal(await t.store.exists(s.storageKey), false);
      assert.equal(await t.db.evalResult.count({ where: { runId: run.id } }), 1, "a run's results are kept");
      assert.deepEqual(await deleteSession(t.db, t.store, sessionId), { ok: false, code: "not_found", message: "no such session" });
      // The replay above cached the analysed session in this process: it must not be served any more.
      assert.deepEqual(await runSessionPolicy(t.db, t.store, { sessionId, policyId: "oldest-turn", cut: 211 }), {
        ok: false,
        code: "not_found",
        message: "no such session",
      });
    });

    test("one session of several goes alone; the upload and its file stay for the others", async () => {
      const imported = await importOne(t, AIDER);
      assert.ok(imported.sessions.length > 1);
      const [first, ...rest] = imported.sessions;
      const upload = await t.db.upload.findUniqueOrThrow({ where: { id: imported.uploadId } });
      const outcome = await deleteSession(t.db, t.store, first!.id, { freshMs: 0 });
      assert.deepEqual(outcome, { ok: true, sessionId: first!.id, upload: "kept", fileName: upload.fileName, otherSessions: rest.length, blobsRemoved: 0 });
      assert.equal(await t.db.traceSession.count({ where: { uploadId: imported.uploadId } }), rest.length);
      assert.equal(await t.store.exists(upload.storageKey), true);
    });

    test("a session a queued run reads is not deleted under it, nor is its upload; once the run is over it can go", async () => {
      const imported = await importOne(t, AIDER_2);
      const busyId = imported.sessions[1]!.id;
      const run = await queuedRunOver(t, [busyId]);
      const refused = await deleteSession(t.db, t.store, busyId, { freshMs: 0 });
      assert.deepEqual(refused, { ok: false, code: "busy", message: `not deleted: evaluation run "busy run" (${run.id}) is queued and reads it` });
      const bulk = await deleteUploads(t.db, t.store, [imported.uploadId], { freshMs: 0 });
      assert.deepEqual(bulk.deleted, []);
      assert.equal(bulk.refused[0]!.uploadId, imported.uploadId);
      assert.equal(await t.db.traceSession.count({ where: { uploadId: imported.uploadId } }), imported.sessions.length, "nothing half-deleted");
      await t.db.evalRun.update({ where: { id: run.id }, data: { status: "cancelled" } });
      const again = await deleteUploads(t.db, t.store, [imported.uploadId], { freshMs: 0 });
      assert.deepEqual(
        again.deleted.map((d) => d.sessions),
        [imported.sessions.length],
      );
    });

    test("retention selects uploads stored before the cutoff, oldest first", async () => {
      const imported = await importOne(t, AIDER_2);
      await t.db.upload.update({ where: { id: imported.uploadId }, data: { createdAt: new Date("2026-01-01T00:00:00Z") } });
      const old = await uploadsOlderThan(t.db, new Date("2026-06-01T00:00:00Z"));
      assert.deepEqual(
        old.map((u) => [u.id, u.sessions]),
        [[imported.uploadId, imported.sessions.length]],
      );
      const outcome = await deleteUploads(
        t.db,
        t.store,
        old.map((u) => u.id),
        { freshMs: 0 },
      );
      assert.equal(outcome.deleted.length, 1);
      assert.deepEqual(await uploadsOlderThan(t.db, new Date("2026-06-01T00:00:00Z")), []);
    });
  });
}
