import type { Db } from "../db/client";
import type { RedactionRecord } from "../trace/import/write-sessions";

/**
 * Imports that are over (server/trace/import/run-upload-import.ts): their blob is either an upload's
 * stored file (imported, duplicate: same bytes, same key) or was given up (failed). Every other
 * status — queued, importing, and any added later — holds its blobs alive through UploadImport.
 */
const FINISHED_IMPORT = ["imported", "duplicate", "failed"];

const PAGE = 5_000;

/**
 * Every column that names a blob, as `Model.column` (the JSON `redaction.rawStorageKey` of a pending
 * UploadImport is read too, below). tests/db/backup-restore.test.ts checks this against every
 * `…storageKey` column of prisma/schema.prisma, so a new blob column cannot be missed silently by
 * the sweep (which would delete its blobs) or the backup (which would leave them out).
 */
export const BLOB_KEY_COLUMNS = [
  "Upload.storageKey",
  "UploadRedaction.rawStorageKey",
  "Sidecar.storageKey",
  "UsageLog.storageKey",
  "UploadImport.storageKey",
] as const;

/**
 * What the readers need: the studio's client, or the client of an open transaction (a backup
 * reads the keys in the same snapshot as the rows it dumps; a restore checks them before it commits).
 */
export type BlobReferenceReader = Pick<Db, "upload" | "sidecar" | "usageLog" | "uploadRedaction" | "uploadImport">;

/**
 * Every blob key a row names. The columns, all of them (keep in step with prisma/schema.prisma):
 * - Upload.storageKey — an upload's stored (redacted) file;
 * - UploadRedaction.rawStorageKey — the raw original an admin chose to keep;
 * - Sidecar.storageKey — a folded payload;
 * - UsageLog.storageKey — a usage log's raw bytes;
 * - UploadImport.storageKey and the `rawStorageKey` inside its JSON `redaction` — the file and raw
 *   original of an import still queued or importing (which may wait longer than any grace period).
 * Read in primary-key pages, so no table is loaded whole. The unreferenced-blob sweep spares these;
 * a backup archives exactly these, and a restore refuses an archive that lacks one of them.
 */
export async function referencedBlobKeys(db: BlobReferenceReader): Promise<Set<string>> {
  const keys = new Set<string>();
  const add = (key: string | null | undefined) => {
    if (key) keys.add(key);
  };
  await eachPage(
    (after) => db.upload.findMany({ where: after(), select: { id: true, storageKey: true }, orderBy: { id: "asc" }, take: PAGE }),
    (r) => add(r.storageKey),
  );
  await eachPage(
    (after) => db.sidecar.findMany({ where: after(), select: { id: true, storageKey: true }, orderBy: { id: "asc" }, take: PAGE }),
    (r) => add(r.storageKey),
  );
  await eachPage(
    (after) => db.usageLog.findMany({ where: after(), select: { id: true, storageKey: true }, orderBy: { id: "asc" }, take: PAGE }),
    (r) => add(r.storageKey),
  );
  await eachPage(
    async (after) =>
      (
        await db.uploadRedaction.findMany({
          where: { uploadId: after().id, rawStorageKey: { not: null } },
          select: { uploadId: true, rawStorageKey: true },
          orderBy: { uploadId: "asc" },
          take: PAGE,
        })
      ).map((r) => ({ id: r.uploadId, rawStorageKey: r.rawStorageKey })),
    (r) => add(r.rawStorageKey),
  );
  for (const row of await pendingImports(db)) {
    add(row.storageKey);
    add(rawKeyOf(row));
  }
  return keys;
}

/**
 * Whether any row names `key` now: the sweep asks this right before removing a blob, so a row
 * written since `referencedBlobKeys` read its pages still saves the blob.
 */
export async function isBlobReferenced(db: BlobReferenceReader, key: string): Promise<boolean> {
  const [upload, sidecar, usageLog, redaction] = await Promise.all([
    db.upload.findFirst({ where: { storageKey: key }, select: { id: true } }),
    db.sidecar.findFirst({ where: { storageKey: key }, select: { id: true } }),
    db.usageLog.findFirst({ where: { storageKey: key }, select: { id: true } }),
    db.uploadRedaction.findFirst({ where: { rawStorageKey: key }, select: { uploadId: true } }),
  ]);
  if (upload || sidecar || usageLog || redaction) return true;
  return (await pendingImports(db)).some((row) => row.storageKey === key || rawKeyOf(row) === key);
}

function pendingImports(db: BlobReferenceReader) {
  return db.uploadImport.findMany({ where: { status: { notIn: FINISHED_IMPORT } }, select: { id: true, storageKey: true, redaction: true } });
}

/** The raw original a pending import keeps; a record that cannot be read stops the sweep rather than guess. */
function rawKeyOf(row: { id: string; redaction: string | null }): string | null {
  if (!row.redaction) return null;
  let record: Partial<RedactionRecord>;
  try {
    record = JSON.parse(row.redaction) as Partial<RedactionRecord>;
  } catch {
    throw new Error(`UploadImport ${row.id}: redaction is not JSON, so the raw original it may keep is unknown; no blob is removed`);
  }
  return typeof record.rawStorageKey === "string" ? record.rawStorageKey : null;
}

/** Visits every row, PAGE at a time in id order: `after()` is the filter past the last page. */
async function eachPage<R extends { id: string }>(
  page: (after: () => { id: { gt: string } | undefined }) => Promise<R[]>,
  visit: (row: R) => void,
): Promise<void> {
  let last: string | undefined;
  for (;;) {
    const rows = await page(() => ({ id: last === undefined ? undefined : { gt: last } }));
    rows.forEach(visit);
    if (rows.length < PAGE) return;
    last = rows[rows.length - 1]!.id;
  }
}
