import { stat } from "node:fs/promises";
import type { FormatId } from "@/lib/trace/model";
import type { Db } from "../../db/client";
import type { JobQueue } from "../../jobs/job-queue";
import type { BlobStore } from "../../storage/blob-store";
import type { RedactionRecord } from "./write-sessions";

/** An upload waiting for (queued) or in (importing) its job; the upload page polls until it ends. */
export interface QueuedUpload {
  status: "queued" | "importing";
  importId: string;
  fileName: string;
  bytes: number;
}

/**
 * Hands a received, redacted upload to the job workers: the file goes into the blob store (where
 * any worker on any machine reads it), an UploadImport row records what to import and with which
 * redaction report, and an `upload-import` job carries the row's id. Nothing is parsed here.
 */
export async function queueUploadImport(input: {
  db: Db;
  store: BlobStore;
  queue: JobQueue;
  path: string;
  fileName: string;
  format?: FormatId | undefined;
  userId?: string | undefined;
  redaction?: RedactionRecord | undefined;
}): Promise<QueuedUpload> {
  const { size } = await stat(input.path);
  const blob = await input.store.putFile(input.path, "uploads");
  const row = await input.db.uploadImport.create({
    data: {
      fileName: input.fileName,
      bytes: size,
      format: input.format ?? null,
      storageKey: blob.key,
      redaction: input.redaction ? JSON.stringify(input.redaction) : null,
      uploadedById: input.userId ?? null,
    },
  });
  await enqueueUploadImport(input.queue, row.id);
  return { status: "queued", importId: row.id, fileName: row.fileName, bytes: size };
}

/** One waiting job per import, however often it is called (the sweep calls it for every queued row). */
export async function enqueueUploadImport(queue: JobQueue, importId: string): Promise<void> {
  await queue.enqueue("upload-import", { importId }, { singletonKey: importId });
}
