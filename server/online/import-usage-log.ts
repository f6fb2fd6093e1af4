import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { ColumnMapping } from "@/lib/online/usage/columns";
import { readUsageBatches, UsageMappingError, type UsageFormat } from "@/lib/online/usage/read-usage";
import type { UsageIssue } from "@/lib/online/usage/schema";
import { SlotAccumulator } from "@/lib/online/assignment/slots";
import type { Db } from "../db/client";
import { sha256OfFile, type BlobStore } from "../storage/blob-store";
import { formatOf } from "./usage-format";
import { writeSlots } from "./write-slots";

export type UsageImportOutcome =
  | { status: "imported"; logId: string; rows: number; slots: number; errorCount: number; errors: UsageIssue[] }
  | { status: "duplicate"; logId: string; fileName: string }
  | { status: "failed"; message: string; rows: number; errorCount: number; errors: UsageIssue[] };

export interface UsageImportProgress {
  bytes: number;
  totalBytes: number;
  rows: number;
  errors: number;
}

export interface ImportUsageLogOptions {
  db: Db;
  store: BlobStore;
  path: string;
  fileName?: string;
  format?: UsageFormat;
  /** The mapping confirmed in the column-mapping step; absent: guessed from the header. */
  mapping?: ColumnMapping;
  userId?: string;
  /** Called about once per MiB read. */
  onProgress?: (progress: UsageImportProgress) => void;
  /** Refuse the whole file when more than this share of its rows fail (default 1%). */
  maxErrorShare?: number;
  /** Slots held in memory before a batch is written (default 50,000; tests lower it). */
  flushSlots?: number;
}

/** Slots held in memory before a flush: bounds the importer's memory whatever the file's size. */
const FLUSH_SLOTS = 50_000;
/** Located errors kept with the log and sent back. */
export const MAX_STORED_ISSUES = 100;
const TRANSACTION_TIMEOUT_MS = 30 * 60_000;

class RefusedImport extends Error {}

/**
 * Imports one usage log: recognises bytes already imported (sha256), streams and validates the rows
 * with the confirmed mapping, and writes per-(account, 15-minute slot, surface) sums in batches, all
 * in one transaction — a refused or crashed import leaves no log, no slot and no new blob. Rows
 * with errors are skipped (as `tracefold online` skips them) and kept as located issues, unless
 * they are more than `maxErrorShare` of the file, which is then refused whole.
 */
export async function importUsageLog(options: ImportUsageLogOptions): Promise<UsageImportOutcome> {
  const { db, store, path } = options;
  const fileName = options.fileName ?? basename(path);
  const sha256 = await sha256OfFile(path);
  const existing = await db.usageLog.findUnique({ where: { sha256 }, select: { id: true, fileName: true } });
  if (existing) return { status: "duplicate", logId: existing.id, fileName: existing.fileName };

  const format = options.format ?? formatOf(fileName);
  const totalBytes = (await stat(path)).size;
  const errors: UsageIssue[] = [];
  let rows = 0,
    errorCount = 0,
    firstAt = Infinity,
    lastAt = -Infinity;
  const blob = await store.putFile(path, "uploads");
  try {
    const log = await db.$transaction(
      async (tx) => {
        const created = await tx.usageLog.create({
          data: {
            fileName,
            sha256,
            bytes: totalBytes,
            storageKey: blob.key,
            format,
            mapping: "{}",
            rowCount: 0,
            errorCount: 0,
            errors: "[]",
            slotCount: 0,
            ...(options.userId ? { createdById: options.userId } : {}),
          },
        });
        const slots = new SlotAccumulator();
        let written = 0;
        const progress = { bytes: 0, totalBytes, rows: 0, errors: 0 };
        const report = () => options.onProgress?.({ ...progress, rows, errors: errorCount });
        let mapping: ColumnMapping | undefined = options.mapping;
        const batches = readUsageBatches(
          decodeFile(path, (n) => ((progress.bytes += n), report())),
          { format, ...(mapping ? { mapping } : {}) },
        );
        for await (const batch of batches) {
          for (const item of batch) {
            if (!item.ok) {
              if (errorCount++ < MAX_STORED_ISSUES) errors.push(item.issue);
              continue;
            }
            rows++;
            if (item.row.timestamp < firstAt) firstAt = item.row.timestamp;
            if (item.row.timestamp > lastAt) lastAt = item.row.timestamp;
            slots.add(item.line, item.row);
            if (slots.size >= (options.flushSlots ?? FLUSH_SLOTS)) written += await writeSlots(tx, created.id, slots.drain());
          }
        }
        if (rows === 0) throw new RefusedImport("the file has no readable usage rows");
        if (errorCount > (options.maxErrorShare ?? 0.01) * (rows + errorCount))
          throw new RefusedImport(
            `${errorCount} of ${rows + errorCount} rows have errors (more than ${Math.round((options.maxErrorShare ?? 0.01) * 100)}%): fix the mapping or the file`,
          );
        written += await writeSlots(tx, created.id, slots.drain());
        mapping ??= await guessedMapping(path, format);
        return tx.usageLog.update({
          where: { id: created.id },
          data: {
            mapping: JSON.stringify(mapping),
            rowCount: rows,
            errorCount,
            errors: JSON.stringify(errors),
            slotCount: written,
            firstAt: new Date(firstAt),
            lastAt: new Date(lastAt),
          },
        });
      },
      { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 60_000 },
    );
    return { status: "imported", logId: log.id, rows, slots: log.slotCount, errorCount, errors };
  } catch (error) {
    if (blob.created) await store.remove(blob.key);
    if (error instanceof RefusedImport) return { status: "failed", message: error.message, rows, errorCount, errors };
    if (error instanceof UsageMappingError) return { status: "failed", message: error.message, rows: 0, errorCount: 0, errors: [] };
    const raced = await db.usageLog.findUnique({ where: { sha256 }, select: { id: true, fileName: true } });
    if (raced) return { status: "duplicate", logId: raced.id, fileName: raced.fileName };
    throw error;
  }
}

/** The file's bytes as UTF-8 text chunks (a multi-byte character split across reads stays whole). */
async function* decodeFile(path: string, onBytes: (n: number) => void): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    onBytes((chunk as Buffer).length);
    yield decoder.write(chunk as Buffer);
  }
  yield decoder.end();
}

/** The mapping the reader guessed, recorded so the log says which columns it read. */
async function guessedMapping(path: string, format: UsageFormat): Promise<ColumnMapping> {
  const { previewUsageFile } = await import("./preview-usage-log");
  return (await previewUsageFile(path, { format, limit: 1 })).mapping;
}
