import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { makeClaudeJsonl } from "../../scripts/bench/make-claude-jsonl";
import type { JobQueue } from "../../server/jobs/job-queue";
import { createPgBossQueue } from "../../server/jobs/pg-boss-queue";
import { createTableQueue } from "../../server/jobs/sqlite-queue";
import { localBlobStore, type BlobStore } from "../../server/storage/blob-store";
import { getUploadImportResponse } from "../../server/trace/import/get-upload-import";
import { receiveUpload } from "../../server/trace/import/receive-upload";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";
import { killWorkers, startWorker, until, type WorkerProcess } from "../helpers/worker-process";
import { writeTransactionOpen } from "../helpers/write-transaction-open";

/**
 * A large upload imported by a job worker, and the worker killed with SIGKILL while the import's
 * transaction is open (issue #7, "Prove it"): no half-imported session may exist afterwards, and
 * the next worker imports the file exactly once. The upload goes through receiveUpload as the
 * studio's PUT /api/uploads does (redaction, blob store, UploadImport row, queued job).
 */
const SOURCE = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl");
const MEGABYTES = 3;

for (const engine of ENGINES) {
  describe(`upload imports under SIGKILL on ${engine}`, () => {
    let t: TestDb;
    let store: BlobStore;
    let queue: JobQueue;
    let userId: string;
    const workers: WorkerProcess[] = [];

    before(async () => {
      t = await createTestDb(engine);
      process.env.TRACEFOLD_DATA_DIR = t.dataDir; // receiveUpload's temp files and the workers' blob store
      store = localBlobStore(t.dataDir);
      userId = (await t.db.user.create({ data: { email: "uploader@test.local", name: "Uploader", passwordHash: "-", role: "reviewer" } })).id;
      queue = engine === "postgres" ? createPgBossQueue(t.url, { supervise: false }) : createTableQueue(t.db);
      await queue.start();
    });
    after(async () => {
      await killWorkers(workers);
      await queue.stop({ timeoutMs: 1_000 });
      await t.close();
    });

    function start(): WorkerProcess {
      const worker = startWorker(t.url, t.dataDir);
      workers.push(worker);
      return worker;
    }

    async function upload(name: string, salt: string): Promise<string> {
      const path = join(t.dataDir, name);
      await makeClaudeJsonl(SOURCE, path, MEGABYTES * 1024 * 1024, salt);
      const outcome = await receiveUpload({
        db: t.db,
        store,
        body: ReadableStreamFrom(path),
        fileName: name,
        userId,
        maxBytes: 1 << 30,
        queue,
        asyncImportBytes: 1024 * 1024,
      });
      assert.equal(outcome.status, "queued", JSON.stringify(outcome).slice(0, 300));
      return (outcome as { importId: string }).importId;
    }

    async function statusOf(importId: string): Promise<string> {
      return (await t.db.uploadImport.findUniqueOrThrow({ where: { id: importId } })).status;
    }

    test("SIGKILL inside the import's transaction leaves no session; the next worker imports the file once", async () => {
      const importId = await upload("big-killed.jsonl", "k_");
      assert.deepEqual(await getUploadImportResponse(t.db, importId), {
        ok: true,
        data: {
          status: "queued",
          importId,
          fileName: "big-killed.jsonl",
          bytes: (await t.db.uploadImport.findUniqueOrThrow({ where: { id: importId } })).bytes,
        },
      });
      const first = start();
      await until(async () => (await statusOf(importId)) === "importing", "the first worker claimed the import", 45_000, first);
      await until(async () => (await writeTransactionOpen(t)) || (await statusOf(importId)) !== "importing", "the import's transaction is open", 45_000, first);
      assert.equal(await statusOf(importId), "importing", JSON.stringify(await t.db.uploadImport.findUniqueOrThrow({ where: { id: importId } })));
      first.child.kill("SIGKILL");
      assert.equal(await first.exited, "SIGKILL");
      assert.equal(await statusOf(importId), "importing", "killed before the import committed");
      assert.equal(await t.db.upload.count(), 0, "no upload row");
      assert.equal(await t.db.traceSession.count(), 0, "no half-imported session");

      const second = start();
      await until(async () => (await statusOf(importId)) === "imported", "the second worker imported the file", 45_000, second).catch(async (error) => {
        throw new Error(
          `${(error as Error).message}\n${JSON.stringify(await t.db.uploadImport.findUniqueOrThrow({ where: { id: importId } }))}\n${JSON.stringify(await t.db.job.findMany())}`,
        );
      });
      const row = await t.db.uploadImport.findUniqueOrThrow({ where: { id: importId } });
      assert.equal(row.attempts, 2, "the killed attempt and the one that finished");
      assert.equal(await t.db.upload.count(), 1, "imported exactly once");
      const sessions = await t.db.traceSession.findMany({ select: { uploadId: true, messageCount: true } });
      assert.ok(sessions.length > 0 && sessions.every((s) => s.uploadId === row.uploadId));
      const answer = await getUploadImportResponse(t.db, importId);
      assert.ok(answer?.ok && "sessions" in answer.data && answer.data.status === "imported", JSON.stringify(answer).slice(0, 300));
      assert.equal(answer.data.sessions.length, sessions.length);

      // The same bytes again: a worker finds them imported and says so; nothing is stored twice.
      const again = await upload("big-killed.jsonl", "k_");
      await until(async () => (await statusOf(again)) === "duplicate", "the duplicate was recognised", 45_000, second);
      assert.equal(await t.db.upload.count(), 1);
      second.child.kill("SIGTERM");
      assert.equal(await second.exited, 0, second.output());
    });
  });
}

/** The body of a PUT as the route handler gets it: a web ReadableStream over the file. */
function ReadableStreamFrom(path: string): ReadableStream<Uint8Array> {
  const stream = createReadStream(path);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stream.on("data", (chunk) => controller.enqueue(new Uint8Array(chunk as Buffer)));
      stream.on("end", () => controller.close());
      stream.on("error", (error) => controller.error(error));
    },
  });
}
