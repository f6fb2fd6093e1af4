import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import { backupWorkspace } from "../../server/backup/backup-workspace";
import { delegateOf } from "../../server/backup/model-delegate";
import { restoreWorkspace, WorkspaceNotEmptyError } from "../../server/backup/restore-workspace";
import { readSchemaModels } from "../../server/backup/schema-models";
import { ArchiveError } from "../../server/backup/tar-reader";
import { createTableQueue } from "../../server/jobs/sqlite-queue";
import { runSessionPolicy } from "../../server/compaction/run-session-policy";
import { setRedactionSettings } from "../../server/settings/redaction-settings";
import { BLOB_KEY_COLUMNS } from "../../server/storage/blob-references";
import { s3BlobStore } from "../../server/storage/s3-blob-store";
import { readManifest, repack } from "../helpers/backup-archive";
import { startTestS3 } from "../helpers/s3-server";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { receiveUpload } from "../../server/trace/import/receive-upload";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const TRACE = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"); // cut 211: before the response at line 1084 (293 messages, 408 records)
const MODELS = readSchemaModels();

/** Users, an imported trace with a sidecar, an evaluation run with results, a review queue with labels, usage slots. */
async function seedWorkspace(t: TestDb): Promise<void> {
  const admin = await t.db.user.create({ data: { email: "admin@backup.test", name: "Admin", passwordHash: "x", role: "admin" } });
  const reviewer = await t.db.user.create({ data: { email: "rev@backup.test", name: "Rév", passwordHash: "y", role: "reviewer" } });
  const imported = await importTraceFile({ db: t.db, store: t.store, path: TRACE, userId: admin.id });
  assert.equal(imported.status, "imported");
  const sessionId = imported.status === "imported" ? imported.sessions[0]!.id : "";
  const fold = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "oldest-turn", cut: 211 });
  assert.ok(fold.ok && fold.result.sidecars.length > 0, "a sidecar to back up");
  const run = await t.db.evalRun.create({
    data: {
      name: "backup run",
      settings: '{"policies":["none"]}',
      status: "done",
      total: 2,
      done: 2,
      createdById: reviewer.id,
      startedAt: new Date("2026-11-23T10:00:00.123Z"),
      finishedAt: new Date(),
    },
  });
  await t.db.evalResult.createMany({
    data: [0, 1].map((i) => ({
      runId: run.id,
      unitKey: `u${i}`,
      sessionId,
      cut: 100 + i,
      cutReason: "turn",
      policy: "none",
      sessionShare: 1 / 3,
      pruneRate: 0.1 * i,
      noImpact: i === 0,
    })),
  });
  const queue = await t.db.reviewQueue.create({ data: { name: "q", kind: "dependency", runId: run.id, overlap: 2 } });
  const item = await t.db.reviewItem.create({
    data: { queueId: queue.id, itemKey: "k1", position: 0, sessionId, cut: 100, payload: "{}", leaseReviewer: reviewer.id, leaseExpiresAt: new Date() },
  });
  await t.db.reviewLabelRow.create({
    data: {
      queueId: queue.id,
      itemKey: "k1",
      labelId: "l1",
      version: 1,
      kind: "dependency",
      reviewerId: reviewer.id,
      reviewer: "Rév",
      body: '{"verdict":"yes — ünïcode"}',
      createdAt: new Date(),
    },
  });
  await t.db.reviewComment.create({ data: { itemId: item.id, authorId: reviewer.id, author: "Rév", body: "line\nbreak" } });
  const log = await t.db.usageLog.create({
    data: {
      fileName: "u.csv",
      sha256: "e".repeat(64),
      bytes: 1,
      storageKey: (await t.store.putBytes(Buffer.from("account,calls\n"), "uploads")).key,
      format: "csv",
      mapping: "{}",
      rowCount: 2,
      errorCount: 0,
      errors: "[]",
      slotCount: 2,
    },
  });
  await t.db.usageSlot.createMany({
    data: [1, 2].map((n) => ({
      logId: log.id,
      account: `a${n}`,
      groupLabel: "A",
      surface: "chat",
      slotStart: new Date(Date.UTC(2026, 4, 25, 0, 15 * n)),
      firstLine: n,
      calls: n,
      input: 1e15 + n,
      cached: 0.5,
      cacheWrite: 0,
      output: 7,
    })),
  });
  await t.db.setting.create({ data: { key: "redactEmails", value: "true", updatedById: admin.id } });
}

/** A secret the upload redaction replaces, so the upload keeps a raw original. */
const SECRET = `ghp_${"Qw4".repeat(12)}zZ`;

/**
 * A large upload as PUT /api/uploads leaves it before any worker ran (threshold 0, a queue with no
 * worker): an UploadImport row, still queued, whose redacted file is named by its `storageKey` and
 * whose raw original — kept because an admin chose to — is named only inside its `redaction` JSON.
 */
async function queueImportWithRawOriginal(t: TestDb): Promise<{ fileKey: string; rawKey: string }> {
  await setRedactionSettings(t.db, { keepRawOriginals: true, redactEmails: false });
  const line = JSON.stringify({
    type: "user",
    uuid: "q-1",
    sessionId: "queued-session",
    timestamp: "2026-11-23T10:00:00Z",
    message: { role: "user", content: `deploy with ${SECRET}` },
  });
  const outcome = await receiveUpload({
    db: t.db,
    store: t.store,
    body: new Blob([`${line}\n`]).stream(),
    fileName: "queued.jsonl",
    userId: "",
    maxBytes: 1 << 20,
    queue: createTableQueue(t.db),
    asyncImportBytes: 0,
  });
  assert.equal(outcome.status, "queued", JSON.stringify(outcome).slice(0, 300));
  const row = await t.db.uploadImport.findFirstOrThrow({ where: { fileName: "queued.jsonl" } });
  const rawKey = (JSON.parse(row.redaction ?? "{}") as { rawStorageKey?: string }).rawStorageKey;
  assert.ok(rawKey && rawKey !== row.storageKey, "the queued import keeps a raw original apart from its redacted file");
  assert.ok((await t.store.readBytes(rawKey)).toString("utf8").includes(SECRET), "the raw original holds the secret");
  return { fileKey: row.storageKey, rawKey };
}

async function dumpTables(t: TestDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const model of MODELS)
    out[model.name] = await delegateOf(t.db, model).findMany({ orderBy: model.idFields.map((f) => ({ [f]: "asc" as const })), take: 100_000 });
  return out;
}

async function storedBlobs(t: TestDb, keys: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const key of keys) out[key] = (await t.store.exists(key)) ? (await t.store.readBytes(key)).toString("base64") : null;
  return out;
}

/** Written out here, not taken from blob-references.ts, so a column that function forgets fails these tests. */
async function blobKeysOf(t: TestDb): Promise<string[]> {
  const pending = await t.db.uploadImport.findMany({ where: { status: { in: ["queued", "importing"] } } });
  const rows = [
    ...(await t.db.upload.findMany()).map((u) => u.storageKey),
    ...(await t.db.sidecar.findMany()).map((s) => s.storageKey),
    ...(await t.db.usageLog.findMany()).map((l) => l.storageKey),
    ...(await t.db.uploadRedaction.findMany()).map((r) => r.rawStorageKey),
    ...pending.map((i) => i.storageKey),
    ...pending.map((i) => (JSON.parse(i.redaction ?? "{}") as { rawStorageKey?: string }).rawStorageKey),
  ];
  return [...new Set(rows.filter((k): k is string => typeof k === "string"))].sort();
}

async function isEmpty(t: TestDb): Promise<boolean> {
  for (const model of MODELS) if ((await delegateOf(t.db, model).count()) > 0) return false;
  return true;
}

for (const engine of ENGINES) {
  describe(`workspace backup and restore on ${engine}`, () => {
    let source: TestDb;
    let target: TestDb;
    let scratch: string;
    let archive: string;
    let keys: string[];
    let queued: { fileKey: string; rawKey: string };
    let backup: Awaited<ReturnType<typeof backupWorkspace>>;
    before(async () => {
      [source, target] = await Promise.all([createTestDb(engine), createTestDb(engine)]);
      scratch = mkdtempSync(join(tmpdir(), "tracefold-backup-"));
      archive = join(scratch, "workspace.tar.gz");
      await seedWorkspace(source);
      queued = await queueImportWithRawOriginal(source);
      keys = await blobKeysOf(source);
      backup = await backupWorkspace({ db: source.db, engine, store: source.store, out: archive, scratchDir: scratch });
    });
    after(async () => {
      await Promise.all([source.close(), target.close()]);
      rmSync(scratch, { recursive: true, force: true });
    });

    test("a backup restores into a fresh database and data directory with every table and blob equal", async () => {
      assert.equal(backup.blobs, keys.length);
      assert.ok(keys.length >= 5, "the upload, a sidecar, the usage log, a queued import's file and raw original");
      const restored = await restoreWorkspace({ db: target.db, engine, store: target.store, file: archive, scratchDir: scratch });
      assert.equal(restored.blobsWritten, keys.length);
      assert.deepEqual(restored.tables, backup.tables);
      assert.deepEqual(await dumpTables(target), await dumpTables(source));
      assert.deepEqual(await storedBlobs(target, keys), await storedBlobs(source, keys));
      assert.ok(Object.values(await storedBlobs(target, keys)).every((b) => b !== null));
      const log = await target.db.usageLog.findFirstOrThrow();
      const slot = await target.db.usageSlot.create({
        data: {
          logId: log.id,
          account: "new",
          groupLabel: "A",
          surface: "chat",
          slotStart: new Date(),
          firstLine: 9,
          calls: 1,
          input: 1,
          cached: 0,
          cacheWrite: 0,
          output: 1,
        },
      });
      assert.ok(slot.id > 2, "autoincrement continues past the restored ids");
    });

    test("a queued import's raw original, named only inside its redaction JSON, is archived and restored", async () => {
      const manifest = readManifest(gunzipSync(readFileSync(archive)));
      const archived = manifest.blobs.map((b: { key: string }) => b.key);
      assert.ok(archived.includes(queued.rawKey), `the manifest lists the raw original ${queued.rawKey}`);
      assert.ok(archived.includes(queued.fileKey), "and the queued file itself");
      // The first test restored into target: the import is still queued there, and both of its blobs are back byte for byte.
      const row = await target.db.uploadImport.findFirstOrThrow({ where: { fileName: "queued.jsonl" } });
      assert.equal(row.status, "queued");
      assert.ok((await target.store.readBytes(queued.rawKey)).equals(await source.store.readBytes(queued.rawKey)));
      assert.ok((await target.store.readBytes(queued.rawKey)).toString("utf8").includes(SECRET));
      assert.ok((await target.store.readBytes(queued.fileKey)).equals(await source.store.readBytes(queued.fileKey)));
    });

    test("an archive without a blob its rows name (a pre-fix backup missing the raw original) is refused whole", async () => {
      const empty = await createTestDb(engine);
      try {
        const file = join(scratch, "without-raw.tar");
        writeFileSync(
          file,
          repack(gunzipSync(readFileSync(archive)), {
            drop: `blobs/${queued.rawKey}`,
            edit: (m) => (m.blobs = m.blobs.filter((b: { key: string }) => b.key !== queued.rawKey)),
          }),
        );
        await assert.rejects(
          restoreWorkspace({ db: empty.db, engine, store: empty.store, file, scratchDir: scratch }),
          (e: unknown) =>
            e instanceof ArchiveError && e.message === `the restored rows name 1 blob the archive does not hold (${queued.rawKey}): the backup is incomplete`,
        );
        assert.ok(await isEmpty(empty), "no row written");
        assert.ok(
          Object.values(await storedBlobs(empty, keys)).every((b) => b === null),
          "the blobs it put are removed again",
        );
      } finally {
        await empty.close();
      }
    });

    test("a non-empty workspace is refused, and --force replaces its contents", async () => {
      await assert.rejects(
        restoreWorkspace({ db: target.db, engine, store: target.store, file: archive, scratchDir: scratch }),
        (e: unknown) => e instanceof WorkspaceNotEmptyError && /User: 2/.test(e.message),
      );
      await target.db.user.create({ data: { email: "extra@backup.test", name: "Extra", passwordHash: "z", role: "viewer" } });
      await restoreWorkspace({ db: target.db, engine, store: target.store, file: archive, scratchDir: scratch, force: true });
      assert.deepEqual(await dumpTables(target), await dumpTables(source));
    });

    test("a truncated or corrupted archive fails with a located error and writes nothing", async () => {
      const empty = await createTestDb(engine);
      try {
        const bytes = readFileSync(archive);
        const tar = gunzipSync(bytes);
        const cases: { name: string; data: Buffer; error: RegExp }[] = [
          { name: "gzip cut in half", data: bytes.subarray(0, Math.floor(bytes.length / 2)), error: /gzip stream is truncated/ },
          { name: "tar cut inside an entry", data: tar.subarray(0, tar.length - 2048 - 100), error: /truncated: entry manifest\.json ends after/ },
          {
            name: "tar without its end marker",
            data: tar.subarray(0, tar.length - 1024),
            error: /truncated: it ends at byte \d+ without the end-of-archive marker/,
          },
          {
            name: "a flipped byte in a blob",
            data: flipInEntry(tar, "blobs/sidecars/"),
            error: /^blobs\/sidecars\/[0-9a-f]{2}\/[0-9a-f]{64}: sha256 [0-9a-f]{64} does not match/,
          },
          {
            name: "a flipped byte in a table",
            data: flipInEntry(tar, "tables/User.jsonl"),
            error: /^tables\/User\.jsonl: sha256 .* does not match the manifest/,
          },
          { name: "a flipped byte in a header", data: flipAt(tar, 20), error: /corrupted tar header at byte 0/ },
          {
            name: "a manifest whose counts lie",
            data: editManifest(tar, (m) => (m.tables.find((t: { model: string }) => t.model === "User").rows = 3)),
            error: /^tables\/User\.jsonl: 2 rows restored, the manifest says 3$/,
          },
        ];
        for (const c of cases) {
          const file = join(scratch, `bad-${c.name.replace(/\W+/g, "-")}`);
          writeFileSync(file, c.data);
          await assert.rejects(
            restoreWorkspace({ db: empty.db, engine, store: empty.store, file, scratchDir: scratch }),
            (e: unknown) => e instanceof ArchiveError && c.error.test(e.message),
            c.name,
          );
          assert.ok(await isEmpty(empty), `${c.name}: no row written`);
          assert.ok(
            Object.values(await storedBlobs(empty, keys)).every((b) => b === null),
            `${c.name}: no blob written`,
          );
        }
      } finally {
        await empty.close();
      }
    });
  });
}

test("every column of the schema that names a blob is one blob-references.ts reads (the backup and the sweep share it)", () => {
  const columns = MODELS.flatMap((m) => m.fields.filter((f) => /storageKey$/i.test(f.name)).map((f) => `${m.name}.${f.name}`));
  assert.deepEqual([...columns].sort(), [...BLOB_KEY_COLUMNS].sort());
});

describe("a SQLite + local disk backup restores onto PostgreSQL + S3", () => {
  test("every table and blob equal after moving engines and stores", async () => {
    const [source, target, s3] = await Promise.all([createTestDb("sqlite"), createTestDb("postgres"), startTestS3()]);
    const scratch = mkdtempSync(join(tmpdir(), "tracefold-move-"));
    try {
      await seedWorkspace(source);
      const keys = await blobKeysOf(source);
      const archive = join(scratch, "move.tar.gz");
      await backupWorkspace({ db: source.db, engine: "sqlite", store: source.store, out: archive, scratchDir: scratch });
      const bucket = s3BlobStore(s3.settings);
      await restoreWorkspace({ db: target.db, engine: "postgres", store: bucket, file: archive, scratchDir: scratch });
      assert.deepEqual(await dumpTables(target), await dumpTables(source));
      assert.deepEqual(await storedBlobs({ ...target, store: bucket }, keys), await storedBlobs(source, keys));
    } finally {
      await Promise.all([source.close(), target.close(), s3.close()]);
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

/** The tar with one byte of the first entry whose name starts with `prefix` changed. */
function flipInEntry(tar: Buffer, prefix: string): Buffer {
  for (let at = 0; at + 512 <= tar.length;) {
    const name = tar
      .subarray(at, at + 100)
      .toString("utf8")
      .replace(/\0.*$/s, "");
    const size = parseInt(
      tar
        .subarray(at + 124, at + 136)
        .toString("ascii")
        .replace(/[\0 ]/g, ""),
      8,
    );
    if (name.startsWith(prefix) && size > 0) return flipAt(tar, at + 512 + Math.floor(size / 2));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`no entry ${prefix}`);
}

function flipAt(tar: Buffer, at: number): Buffer {
  const copy = Buffer.from(tar);
  copy[at] = copy[at]! ^ 0x20;
  return copy;
}

/** The archive re-packed with its manifest edited: entries and digests intact, so the load itself must catch the lie. */
function editManifest(tar: Buffer, edit: (manifest: any) => void): Buffer {
  return repack(tar, { edit });
}
