import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ColumnMapping } from "@/lib/online/usage/columns";
import type { UsageFormat } from "@/lib/online/usage/read-usage";
import type { Db } from "../db/client";
import { dataDir, type BlobStore } from "../storage/blob-store";
import { EmptyUploadError } from "../trace/import/receive-upload";
import { writeBodyToFile } from "../trace/import/write-body-to-file";
import { importUsageLog, type UsageImportOutcome, type UsageImportProgress } from "./import-usage-log";

export interface ReceiveUsageLogOptions {
  db: Db;
  store: BlobStore;
  body: ReadableStream<Uint8Array> | null;
  fileName: string;
  format?: UsageFormat | undefined;
  mapping?: ColumnMapping | undefined;
  userId: string;
  maxBytes: number;
  onProgress?: (progress: UsageImportProgress) => void;
}

/**
 * Receives an uploaded usage log: streams the body to a temp file (never into memory), imports it
 * with the confirmed mapping, and always removes the temp file. Throws UploadTooLargeError or
 * EmptyUploadError for bodies refused before the import.
 */
export async function receiveUsageLog(options: ReceiveUsageLogOptions): Promise<UsageImportOutcome> {
  if (!options.body) throw new EmptyUploadError();
  const dir = join(dataDir(), "tmp", "uploads");
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomUUID()}.usage`);
  try {
    const bytes = await writeBodyToFile(options.body, path, options.maxBytes);
    if (bytes === 0) throw new EmptyUploadError();
    return await importUsageLog({
      db: options.db,
      store: options.store,
      path,
      fileName: options.fileName,
      userId: options.userId,
      ...(options.format ? { format: options.format } : {}),
      ...(options.mapping ? { mapping: options.mapping } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } finally {
    await rm(path, { force: true });
  }
}
