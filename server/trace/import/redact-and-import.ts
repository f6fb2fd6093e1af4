import type { FormatId } from "@/lib/trace/model";
import type { TokenizerId } from "@/lib/tokens/tokenizer";
import type { Db } from "../../db/client";
import type { JobQueue } from "../../jobs/job-queue";
import { redactOptionsOf } from "@/lib/redact";
import { getRedactionSettings, rulesOf } from "../../settings/redaction-settings";
import type { BlobStore } from "../../storage/blob-store";
import { importTraceFile, type ImportOutcome } from "./import-trace-file";
import { queueUploadImport, type QueuedUpload } from "./queue-upload-import";
import { getUploadRedaction, toRedactionRecord, type RedactionSummary } from "./redaction-report";
import { redactUploadFile } from "./redact-upload-file";
import { removeUnreferencedRaw } from "./remove-unreferenced-raw";
import { expandArchive } from "../files/expand-archive";
import { rm } from "node:fs/promises";

export interface RedactAndImportOptions {
  db: Db;
  store: BlobStore;
  /** The original file on local disk (never modified). */
  path: string;
  /** Where the redacted copy is written; the caller removes it. */
  redactedPath: string;
  fileName: string;
  format?: FormatId | undefined;
  tokenizer?: TokenizerId | undefined;
  userId?: string | undefined;
  /** Hand the redacted file to the job workers instead of importing it here when the original is larger than `thresholdBytes`. */
  queue?: { queue: JobQueue; thresholdBytes: number; bytes: number } | undefined;
  /** At most this many report entries in the answer (the whole report is stored either way). */
  reportLimit?: number | undefined;
}

/** An import outcome plus, for a stored file, what was redacted from it; or a large file queued for a worker. */
export type RedactedOutcome = (ImportOutcome & { redaction?: RedactionSummary }) | QueuedUpload;

/**
 * The one sequence every way into the database takes for a trace file (the upload route, `tracefold
 * import`, the demo seed): secrets redacted line by line into a copy (the admin's settings decide
 * e-mails, the rules switched off, the allow-list and whether the raw original is kept), the raw
 * original stored only when it is kept and something was redacted, then the copy imported —
 * duplicate check, parse, store and the report in one transaction — or queued for a worker. A raw
 * original this call stored is removed again when the import does not keep it (failed or duplicate:
 * unless another upload's report names the same bytes, see remove-unreferenced-raw.ts), also when
 * the import throws.
 * A compressed file (gzip, or an Inspect `.eval` zip) is expanded first, within the zip-bomb
 * limits (expand-archive.ts), into a third temp file next to the redacted copy; the raw original
 * kept is the compressed file byte for byte. A refused archive throws ArchiveError before anything
 * is stored.
 * Kept in one place because each path sequencing it alone is how a fix reached one and not the other.
 */
export async function redactAndImport(options: RedactAndImportOptions & { queue?: undefined }): Promise<ImportOutcome & { redaction?: RedactionSummary }>;
export async function redactAndImport(options: RedactAndImportOptions): Promise<RedactedOutcome>;
export async function redactAndImport(options: RedactAndImportOptions): Promise<RedactedOutcome> {
  const { db, store } = options;
  let raw: { key: string; created: boolean } | undefined;
  const expandedPath = `${options.redactedPath}.expanded`;
  try {
    const plainPath = (await expandArchive(options.path, expandedPath, options.fileName)) ? expandedPath : options.path;
    const settings = await getRedactionSettings(db);
    const report = await redactUploadFile(plainPath, options.redactedPath, redactOptionsOf(rulesOf(settings)));
    if (settings.keepRawOriginals && report.length > 0) raw = await store.putFile(options.path, "uploads");
    const redaction = toRedactionRecord(report, raw?.key ?? null, settings.redactEmails);
    const common = {
      db,
      store,
      path: options.redactedPath,
      fileName: options.fileName,
      redaction,
      ...(options.format ? { format: options.format } : {}),
      ...(options.userId ? { userId: options.userId } : {}),
    };
    if (options.queue && options.queue.bytes > options.queue.thresholdBytes) return await queueUploadImport({ ...common, queue: options.queue.queue });
    const outcome = await importTraceFile({ ...common, ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}) });
    if (outcome.status !== "imported" && raw?.created) await removeUnreferencedRaw(db, store, raw.key);
    if (outcome.status === "failed") return outcome;
    const summary = await getUploadRedaction(db, outcome.uploadId, options.reportLimit);
    return summary ? { ...outcome, redaction: summary } : outcome;
  } catch (error) {
    if (raw?.created) await removeUnreferencedRaw(db, store, raw.key);
    throw error;
  } finally {
    await rm(expandedPath, { force: true });
  }
}
