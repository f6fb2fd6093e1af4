import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { FormatId } from "@/lib/trace/model";
import type { Db } from "../db/client";
import type { JobQueue } from "../jobs/job-queue";
import { getRedactionSettings } from "../settings/redaction-settings";
import type { BlobStore } from "../storage/blob-store";
import { dataDir } from "../storage/blob-store";
import { importTraceFile, type ImportOutcome } from "../traces/import-trace-file";
import { queueUploadImport, type QueuedUpload } from "./queue-upload-import";
import { getUploadRedaction, MAX_REDACTIONS_IN_RESPONSE, toRedactionRecord, type RedactionSummary } from "./redaction-report";
import { redactUploadFile } from "./redact-upload-file";
import { refuseArchive } from "./refuse-archive";
import { removeUnreferencedRaw } from "./remove-unreferenced-raw";
import { sweepUploadTemps } from "./sweep-upload-temps";
import { writeBodyToFile } from "./write-body-to-file";

/** The request had no bytes: there is nothing to import (a clearer answer than "unknown format"). */
export class EmptyUploadError extends Error {
  constructor() {
    super("the file is empty");
    this.name = "EmptyUploadError";
  }
}

export interface ReceiveUploadOptions {
  db: Db;
  store: BlobStore;
  body: ReadableStream<Uint8Array> | null;
  fileName: string;
  format?: FormatId | undefined;
  userId: string;
  maxBytes: number;
  /** With `asyncImportBytes`: files larger than that are imported by a job worker (see queue-upload-import.ts). */
  queue?: JobQueue;
  asyncImportBytes?: number;
}

/** An import outcome plus, for a stored upload, what was redacted from it; or a large file queued for a worker. */
export type UploadOutcome = (ImportOutcome & { redaction?: RedactionSummary }) | QueuedUpload;

/**
 * Receives one uploaded file: streams the body to a temp file under the data directory, refuses
 * archives, redacts secrets line by line into a second temp file (the admin's settings decide
 * e-mails and whether the raw original is kept), imports the redacted file (duplicate check,
 * parse, store, the report in the same transaction) and always removes both temp files. A redacted
 * file larger than `asyncImportBytes` is not parsed here: it is stored and queued for a job worker,
 * and the answer says `queued` with the id the upload page polls. Temp files a killed studio left
 * behind (over an hour old) are swept first, so an unredacted original does not stay on disk. Throws
 * UploadTooLargeError, EmptyUploadError or UploadRefusedError for bodies it refuses before importing.
 */
export async function receiveUpload(options: ReceiveUploadOptions): Promise<UploadOutcome> {
  if (!options.body) throw new EmptyUploadError();
  const { db, store } = options;
  const dir = join(dataDir(), "tmp", "uploads");
  await mkdir(dir, { recursive: true });
  await sweepUploadTemps(dir);
  const path = join(dir, `${randomUUID()}.upload`);
  const redactedPath = `${path}.redacted`;
  let raw: { key: string; created: boolean } | undefined;
  try {
    const bytes = await writeBodyToFile(options.body, path, options.maxBytes);
    if (bytes === 0) throw new EmptyUploadError();
    await refuseArchive(path);
    const settings = await getRedactionSettings(db);
    const report = await redactUploadFile(path, redactedPath, { emails: settings.redactEmails });
    if (settings.keepRawOriginals && report.length > 0) raw = await store.putFile(path, "uploads");
    const record = toRedactionRecord(report, raw?.key ?? null, settings.redactEmails);
    if (options.queue && options.asyncImportBytes !== undefined && bytes > options.asyncImportBytes) {
      return await queueUploadImport({ db, store, queue: options.queue, path: redactedPath, fileName: options.fileName, format: options.format, userId: options.userId, redaction: record });
    }
    const outcome = await importTraceFile({
      db,
      store,
      path: redactedPath,
      fileName: options.fileName,
      userId: options.userId,
      redaction: record,
      ...(options.format ? { format: options.format } : {}),
    });
    if (outcome.status !== "imported" && raw?.created) await removeUnreferencedRaw(db, store, raw.key);
    if (outcome.status === "failed") return outcome;
    const redaction = await getUploadRedaction(db, outcome.uploadId, MAX_REDACTIONS_IN_RESPONSE);
    return redaction ? { ...outcome, redaction } : outcome;
  } catch (error) {
    if (raw?.created) await removeUnreferencedRaw(db, store, raw.key);
    throw error;
  } finally {
    await rm(path, { force: true });
    await rm(redactedPath, { force: true });
  }
}
