import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import type { FormatId } from "@/lib/trace/model";
import type { Db } from "../../db/client";
import { publicMessage } from "../../errors/public-error";
import type { JobHandler, JobQueue } from "../../jobs/job-queue";
import { dataDir, type BlobStore } from "../../storage/blob-store";
import { importTraceFile } from "./import-trace-file";
import type { RedactionRecord } from "./write-sessions";
import { enqueueUploadImport } from "./queue-upload-import";

/** Imports interrupted this many times (their worker died each time) are marked failed. */
export const MAX_IMPORT_ATTEMPTS = 3;
/** A worker's import whose heartbeat is older than this is taken back (TRACEFOLD_RUN_STALE_MS also applies). */
export const DEFAULT_IMPORT_STALE_MS = 120_000;

export const UploadImportJobSchema = z.object({ importId: z.string().min(1, "importId is required") });

/**
 * Executes one queued upload import: claims the row (queued → importing, atomically, counting the
 * attempt), copies the waiting blob to a temp file and imports it with importTraceFile — one
 * transaction, so a worker killed half-way leaves no session behind and the next attempt starts
 * clean. The row ends imported, duplicate (the same bytes were imported meanwhile) or failed with
 * the located parse errors; an import interrupted MAX_IMPORT_ATTEMPTS times ends failed, and the
 * person uploads the file again. While it works the row's heartbeat is renewed.
 */
export async function runUploadImport(db: Db, store: BlobStore, importId: string, options: { workerId: string; staleMs?: number }): Promise<string | null> {
  const row = await db.uploadImport.findUnique({ where: { id: importId } });
  if (!row || row.status !== "queued") return null;
  if (row.attempts >= MAX_IMPORT_ATTEMPTS) {
    await db.uploadImport.updateMany({
      where: { id: importId, status: "queued" },
      data: { status: "failed", error: `the import was interrupted ${row.attempts} times (its worker stopped); upload the file again` },
    });
    await removeUnreferenced(db, store, row.storageKey, row.redaction);
    return "failed";
  }
  const claimed = await db.uploadImport.updateMany({
    where: { id: importId, status: "queued", attempts: row.attempts },
    data: { status: "importing", workerId: options.workerId, heartbeatAt: new Date(), attempts: row.attempts + 1, error: null },
  });
  if (claimed.count === 0) return null;
  const mine = { id: importId, status: "importing", workerId: options.workerId };
  const beat = setInterval(
    () => void db.uploadImport.updateMany({ where: mine, data: { heartbeatAt: new Date() } }).catch(() => undefined),
    Math.max(250, Math.floor((options.staleMs ?? DEFAULT_IMPORT_STALE_MS) / 4)),
  );
  beat.unref();
  const dir = join(dataDir(), "tmp", "imports");
  const path = join(dir, `${importId}-${randomUUID().slice(0, 8)}.upload`);
  try {
    await mkdir(dir, { recursive: true });
    const { stream } = await store.openRead(row.storageKey);
    await pipeline(stream, createWriteStream(path));
    const redaction = row.redaction ? (JSON.parse(row.redaction) as RedactionRecord) : undefined;
    const outcome = await importTraceFile({
      db,
      store,
      path,
      fileName: row.fileName,
      ...(row.uploadedById ? { userId: row.uploadedById } : {}),
      ...(redaction ? { redaction } : {}),
      ...(row.format ? { format: row.format as FormatId } : {}),
    });
    if (outcome.status === "failed") {
      const count = outcome.errors.length;
      await db.uploadImport.updateMany({
        where: mine,
        data: {
          status: "failed",
          workerId: null,
          issues: JSON.stringify(outcome.errors.slice(0, 100)),
          error: `the file is not a valid ${outcome.format === "unknown" ? "trace" : outcome.format} file: ${count} ${count === 1 ? "error" : "errors"}`,
        },
      });
      await removeUnreferenced(db, store, row.storageKey, row.redaction);
    } else {
      await db.uploadImport.updateMany({ where: mine, data: { status: outcome.status, uploadId: outcome.uploadId, workerId: null } });
      if (outcome.status === "duplicate") await removeUnreferenced(db, store, null, row.redaction);
    }
    return outcome.status;
  } catch (error) {
    // Not the file's fault (the database or the store failed): hand it back; the job is retried.
    await db.uploadImport.updateMany({ where: mine, data: { status: "queued", workerId: null, error: publicMessage(error, `upload import ${importId}`) } });
    throw error;
  } finally {
    clearInterval(beat);
    await rm(path, { force: true });
  }
}

/** Removes the waiting blob (and a kept raw original) once no upload refers to them. */
async function removeUnreferenced(db: Db, store: BlobStore, storageKey: string | null, redaction: string | null): Promise<void> {
  if (storageKey && !(await db.upload.findFirst({ where: { storageKey }, select: { id: true } }))) await store.remove(storageKey);
  const raw = redaction ? (JSON.parse(redaction) as RedactionRecord).rawStorageKey : null;
  if (raw && !(await db.uploadRedaction.findFirst({ where: { rawStorageKey: raw }, select: { uploadId: true } }))) await store.remove(raw);
}

/** The `upload-import` job handler (the import runs to its end: it is one transaction). */
export function uploadImportHandler(db: Db, store: BlobStore, options: { workerId: string; staleMs?: number }): JobHandler<object> {
  return async (job) => {
    const { importId } = UploadImportJobSchema.parse(job.data);
    await runUploadImport(db, store, importId, options);
  };
}

/**
 * One sweep: imports whose worker went silent for `staleMs` go back to `queued`, and every queued
 * import gets its job (a studio that died between storing the row and queueing the job, a job
 * lost with its worker). Returns the ids taken back.
 */
export async function reconcileUploadImports(db: Db, queue: JobQueue, options: { workerId: string; staleMs?: number }): Promise<string[]> {
  const cutoff = new Date(Date.now() - (options.staleMs ?? DEFAULT_IMPORT_STALE_MS));
  const where = { status: "importing", workerId: { not: options.workerId }, OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: cutoff } }] };
  const stale = await db.uploadImport.findMany({ where, select: { id: true } });
  const recovered: string[] = [];
  for (const { id } of stale) {
    const updated = await db.uploadImport.updateMany({ where: { id, ...where }, data: { status: "queued", workerId: null } });
    if (updated.count === 1) recovered.push(id);
  }
  for (const { id } of await db.uploadImport.findMany({ where: { status: "queued" }, orderBy: { createdAt: "asc" }, select: { id: true } }))
    await enqueueUploadImport(queue, id);
  return recovered;
}
