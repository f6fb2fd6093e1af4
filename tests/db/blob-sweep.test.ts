import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createTableQueue } from "../../server/jobs/sqlite-queue";
import { startJobWorkers } from "../../server/worker/start-job-workers";
import type { BlobStore, PutResult } from "../../server/storage/blob-store";
import { s3BlobStore } from "../../server/storage/s3-blob-store";
import { sweepUnreferencedBlobs } from "../../server/storage/sweep-unreferenced-blobs";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { startTestS3, type TestS3 } from "../helpers/s3-server";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const TRACE = join(TRACES_DIR, "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/hello-world-script/transcript.jsonl");
const HOUR = 3_600_000;
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The store a sweep runs against, and how a test ages one of its blobs by two hours. */
interface Backend {
  name: string;
  open(t: TestDb): Promise<{ store: BlobStore; age(key: string): void; close(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: "local disk",
    open: async (t) => ({
      store: t.store,
      age: (key) => utimesSync(join(t.dataDir, "blobs", key), new Date(Date.now() - 2 * HOUR), new Date(Date.now() - 2 * HOUR)),
      close: async () => undefined,
    }),
  },
  {
    name: "S3 (s3rver)",
    open: async () => {
      const s3: TestS3 = await startTestS3();
      return { store: s3BlobStore(s3.settings), age: (key) => s3.backdate(key, new Date(Date.now() - 2 * HOUR)), close: () => s3.close() };
    },
  },
];

for (const engine of ENGINES) {
  for (const backend of BACKENDS) {
    describe(`unreferenced blob sweep on ${engine}, ${backend.name}`, () => {
      let t: TestDb;
      let store: BlobStore;
      let age: (key: string) => void;
      let close: () => Promise<void>;
      const put = async (text: string, kind: "uploads" | "sidecars" = "uploads", old = true): Promise<PutResult> => {
        const blob = await store.putBytes(Buffer.from(text), kind);
        if (old) age(blob.key);
        return blob;
      };
      let referenced: string[] = [];
      let orphanOld: PutResult;
      let orphanYoung: PutResult;
      let failedImport: PutResult;

      before(async () => {
        t = await createTestDb(engine);
        ({ store, age, close } = await backend.open(t));
        // One row of every kind that names a blob, each blob two hours old.
        const imported = await importTraceFile({ db: t.db, store, path: TRACE });
        assert.equal(imported.status, "imported");
        if (imported.status !== "imported") return;
        const upload = await t.db.upload.findUniqueOrThrow({ where: { id: imported.uploadId } });
        age(upload.storageKey);
        const raw = await put("raw original kept by an admin");
        await t.db.uploadRedaction.create({ data: { uploadId: upload.id, count: 1, report: "[]", rawStorageKey: raw.key } });
        const sidecar = await put("a folded payload", "sidecars");
        await t.db.sidecar.create({
          data: { sha256: sidecar.sha256, bytes: 16, storageKey: sidecar.key, target: "function:read:1", sessionId: imported.sessions[0]!.id },
        });
        const usage = await put("account,at\na,2026-01-01T00:00:00Z\n");
        await t.db.usageLog.create({
          data: {
            fileName: "u.csv",
            sha256: usage.sha256,
            bytes: 34,
            storageKey: usage.key,
            format: "csv",
            mapping: "{}",
            rowCount: 1,
            errorCount: 0,
            errors: "[]",
            slotCount: 0,
          },
        });
        const waiting = await put("an upload waiting for its import");
        const waitingRaw = await put("the raw original of a waiting upload");
        const redaction = JSON.stringify({ count: 1, report: "[]", rawStorageKey: waitingRaw.key, emailsRedacted: false });
        await t.db.uploadImport.create({ data: { fileName: "w.jsonl", bytes: 31, storageKey: waiting.key, redaction, status: "queued" } });
        referenced = [upload.storageKey, raw.key, sidecar.key, usage.key, waiting.key, waitingRaw.key];
        // A finished import no longer holds its blob; an orphan (killed import) old and one young.
        failedImport = await put("a refused upload whose blob removal was interrupted");
        await t.db.uploadImport.create({ data: { fileName: "f.jsonl", bytes: 52, storageKey: failedImport.key, status: "failed" } });
        orphanOld = await put("left by an import killed before its commit", "sidecars");
        orphanYoung = await put("an import in flight", "uploads", false);
      });
      after(async () => {
        await close();
        await t.close();
      });

      test("a dry run counts what would go and removes nothing", async () => {
        const result = await sweepUnreferencedBlobs(t.db, store, { dryRun: true });
        assert.deepEqual(
          { scanned: result.scanned, referenced: result.referenced, keptYoung: result.keptYoung, removed: result.removed, vanished: result.vanished },
          { scanned: 9, referenced: 6, keptYoung: 1, removed: 2, vanished: 0 },
        );
        assert.deepEqual(result.removedKeys.sort(), [failedImport.key, orphanOld.key].sort());
        assert.equal(
          result.bytesFreed,
          Buffer.byteLength("a refused upload whose blob removal was interrupted") + Buffer.byteLength("left by an import killed before its commit"),
        );
        assert.equal(result.dryRun, true);
        for (const key of [...referenced, failedImport.key, orphanOld.key, orphanYoung.key]) assert.equal(await store.exists(key), true, key);
      });

      test("the sweep removes old unreferenced blobs and keeps referenced and young ones", async () => {
        const result = await sweepUnreferencedBlobs(t.db, store);
        assert.equal(result.removed, 2);
        assert.equal(result.keptYoung, 1);
        assert.equal(result.referenced, 6);
        assert.equal(await store.exists(orphanOld.key), false);
        assert.equal(await store.exists(failedImport.key), false);
        assert.equal(await store.exists(orphanYoung.key), true, "within the grace period");
        for (const key of referenced) assert.equal(await store.exists(key), true, `${key} is referenced`);
        const again = await sweepUnreferencedBlobs(t.db, store);
        assert.deepEqual({ scanned: again.scanned, removed: again.removed, bytesFreed: again.bytesFreed }, { scanned: 7, removed: 0, bytesFreed: 0 });
      });

      test("a grace period of zero takes the young orphan too", async () => {
        const result = await sweepUnreferencedBlobs(t.db, store, { graceMs: 0, now: () => Date.now() + 5_000 });
        assert.deepEqual(result.removedKeys, [orphanYoung.key]);
        assert.equal(await store.exists(orphanYoung.key), false);
      });

      test("an old orphan put again by a new import is young again and survives until the import commits", async () => {
        const bytes = "the same file, uploaded again a day later";
        const first = await put(bytes);
        const again = await store.putBytes(Buffer.from(bytes), "uploads");
        assert.equal(again.created, false);
        const result = await sweepUnreferencedBlobs(t.db, store);
        assert.equal(result.removedKeys.includes(first.key), false);
        assert.equal(await store.exists(first.key), true);
        await store.remove(first.key);
      });

      test("a row committed after the sweep read the references still saves its blob (re-checked before removal)", async () => {
        const late = await put("referenced while the sweep runs", "sidecars");
        const racing: BlobStore = {
          ...store,
          stat: async (key) => {
            // The import commits between the sweep's first read and its re-check.
            if (key === late.key)
              await t.db.sidecar.create({ data: { sha256: late.sha256, bytes: 31, storageKey: late.key, target: "function:read:2", sessionId: "s" } });
            return store.stat(key);
          },
        };
        const result = await sweepUnreferencedBlobs(t.db, racing);
        assert.equal(result.removed, 0);
        assert.equal(await store.exists(late.key), true);
        assert.equal(sha(await store.readBytes(late.key)), late.sha256);
      });
    });
  }
}

for (const engine of ENGINES) {
  describe(`job workers sweep blobs periodically on ${engine}`, () => {
    test("started with blobSweepMs, the workers remove an old orphan and keep a young one", async () => {
      const t = await createTestDb(engine);
      const workers = await startJobWorkers(t.db, createTableQueue(t.db, { pollMs: 50 }), { store: t.store, sweepMs: 60_000, blobSweepMs: 50 });
      try {
        const old = await t.store.putBytes(Buffer.from("orphaned long ago"), "sidecars");
        const when = new Date(Date.now() - 2 * HOUR);
        utimesSync(join(t.dataDir, "blobs", old.key), when, when);
        const young = await t.store.putBytes(Buffer.from("an import in flight"), "uploads");
        const deadline = Date.now() + 10_000;
        while ((await t.store.exists(old.key)) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 25));
        assert.equal(await t.store.exists(old.key), false, "removed by a periodic sweep");
        assert.equal(await t.store.exists(young.key), true);
      } finally {
        await workers.stop({ timeoutMs: 5_000 });
        await t.close();
      }
    });
  });
}
