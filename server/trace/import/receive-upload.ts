import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { FormatId } from "@/lib/trace/model";
import type { Db } from "../../db/client";
import type { JobQueue } from "../../jobs/job-queue";
import type { BlobStore } from "../../storage/blob-store";
import { dataDir } from "../../storage/blob-store";
import { redactAndImport, type RedactedOutcome } from "./redact-and-import";
import { MAX_REDACTIONS_IN_RESPONSE } from "./redaction-report";
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
  /** The uploader (absent: an API key whose creator is unknown, e.g. one made with the CLI). */
  userId?: string | undefined;
  maxBytes: number;
  /** With `asyncImportBytes`: files larger than that are imported by a job worker (see queue-upload-import.ts). */
  queue?: JobQueue;
  asyncImportBytes?: number;
}

/** An import outcome plus, for a stored upload, what was redacted from it; or a large file queued for a worker. */
export type UploadOutcome = RedactedOutcome;

/**
 * Receives one uploaded file: streams the body to a temp file under the data directory, then
 * expands it when compressed (gzip, or an Inspect `.eval` zip: see expand-archive.ts), redacts and imports it as every path into the database does (redact-and-import.ts:
 * secrets redacted into a second temp file, the raw original kept only when the admin says so, the
 * redacted file imported with its report in one transaction) and always removes both temp files. A
 * file larger than `asyncImportBytes` is not parsed here: it is stored and queued for a job worker,
 * and the answer says `queued` with the id the upload page polls. Temp files a killed studio left
 * behind (over an hour old) are swept first, so an unredacted original does not stay on disk. Throws
 * UploadTooLargeError, EmptyUploadError or ArchiveError for bodies it refuses before importing.
 */
export async function receiveUpload(options: ReceiveUploadOptions): Promise<UploadOutcome> {
  if (!options.body) throw new EmptyUploadError();
  const { db, store } = options;
  const dir = join(dataDir(), "tmp", "uploads");
  await mkdir(dir, { recursive: true });
  await sweepUploadTemps(dir);
  const path = join(dir, `${randomUUID()}.upload`);
  const redactedPath = `${path}.redacted`;
  try {
    const bytes = await writeBodyToFile(options.body, path, options.maxBytes);
    if (bytes === 0) throw new EmptyUploadError();
    const queue =
      options.queue && options.asyncImportBytes !== undefined ? { queue: options.queue, thresholdBytes: options.asyncImportBytes, bytes } : undefined;
    return await redactAndImport({
      db,
      store,
      path,
      redactedPath,
      fileName: options.fileName,
      format: options.format,
      userId: options.userId,
      queue,
      reportLimit: MAX_REDACTIONS_IN_RESPONSE,
    });
  } finally {
    await rm(path, { force: true });
    await rm(redactedPath, { force: true });
  }
}
