import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import type { FormatId } from "@/lib/trace/model";
import type { TokenizerId } from "@/lib/tokens/tokenizer";
import type { Db } from "../db/client";
import { getRedactionSettings } from "../settings/redaction-settings";
import type { BlobStore } from "../storage/blob-store";
import { dataDir } from "../storage/data-dir";
import { getUploadRedaction, toRedactionRecord, type RedactionSummary } from "../uploads/redaction-report";
import { redactUploadFile } from "../uploads/redact-upload-file";
import { removeUnreferencedRaw } from "../uploads/remove-unreferenced-raw";
import { importTraceFile, type ImportOutcome } from "./import-trace-file";

export interface ImportRedactedOptions {
  db: Db;
  store: BlobStore;
  path: string;
  fileName?: string;
  format?: FormatId;
  tokenizer?: TokenizerId;
  userId?: string;
}

/** An import outcome and, for a stored file, the located report of what was redacted from it. */
export type RedactedImportOutcome = ImportOutcome & { redaction?: RedactionSummary };

/**
 * Imports a trace file from disk the way an upload is imported (server/uploads/receive-upload.ts):
 * secrets redacted line by line into a temp copy first (the admin's settings decide e-mails and
 * whether the raw original is kept), the redacted copy parsed and stored, the report written in the
 * import's transaction. Used by `tracefold import` (unless --no-redact) and the demo seed, so no
 * path into the database stores a trace's secrets by default. The temp copy is always removed.
 */
export async function importRedactedFile(options: ImportRedactedOptions): Promise<RedactedImportOutcome> {
  const { db, store } = options;
  const dir = join(dataDir(), "tmp", "imports");
  await mkdir(dir, { recursive: true });
  const redactedPath = join(dir, `${randomUUID()}.redacted`);
  let raw: { key: string; created: boolean } | undefined;
  try {
    const settings = await getRedactionSettings(db);
    const report = await redactUploadFile(options.path, redactedPath, { emails: settings.redactEmails });
    if (settings.keepRawOriginals && report.length > 0) raw = await store.putFile(options.path, "uploads");
    const outcome = await importTraceFile({
      db,
      store,
      path: redactedPath,
      fileName: options.fileName ?? basename(options.path),
      redaction: toRedactionRecord(report, raw?.key ?? null, settings.redactEmails),
      ...(options.format ? { format: options.format } : {}),
      ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
      ...(options.userId ? { userId: options.userId } : {}),
    });
    if (outcome.status !== "imported" && raw?.created) await removeUnreferencedRaw(db, store, raw.key);
    if (outcome.status === "failed") return outcome;
    const redaction = await getUploadRedaction(db, outcome.uploadId);
    return redaction ? { ...outcome, redaction } : outcome;
  } catch (error) {
    if (raw?.created) await removeUnreferencedRaw(db, store, raw.key);
    throw error;
  } finally {
    await rm(redactedPath, { force: true });
  }
}

/** `3 secrets redacted (2 openai_key, 1 bearer)` / `no secrets found`: the CLI's one-line summary. */
export function summarizeRedaction(redaction: RedactionSummary | undefined): string {
  if (!redaction || redaction.count === 0) return "no secrets found";
  const kinds = new Map<string, number>();
  for (const entry of redaction.entries) kinds.set(entry.kind, (kinds.get(entry.kind) ?? 0) + 1);
  const parts = [...kinds].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([kind, n]) => `${n} ${kind}`);
  const all = [...new Set(redaction.entries.map((e) => e.line))];
  const lines = `line${all.length === 1 ? "" : "s"} ${all.slice(0, 8).join(", ")}${all.length > 8 ? ", …" : ""}`;
  return `${redaction.count} secret${redaction.count === 1 ? "" : "s"} redacted (${parts.join(", ")}) on ${lines}${redaction.rawKept ? "; raw original kept" : ""}`;
}

/** Kind → count over the whole report, for `--json`. */
export function redactionKinds(redaction: RedactionSummary | undefined): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const entry of redaction?.entries ?? []) kinds[entry.kind] = (kinds[entry.kind] ?? 0) + 1;
  return kinds;
}
