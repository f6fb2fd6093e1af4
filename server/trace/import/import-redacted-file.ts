import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { dataDir } from "../../storage/data-dir";
import { redactAndImport } from "./redact-and-import";
import type { RedactionSummary } from "./redaction-report";
import type { ImportOptions, ImportOutcome } from "./import-trace-file";

/** importTraceFile's options; the redaction record is what this function makes. */
export type ImportRedactedOptions = Omit<ImportOptions, "redaction">;

/** An import outcome and, for a stored file, the located report of what was redacted from it. */
export type RedactedImportOutcome = ImportOutcome & { redaction?: RedactionSummary };

/**
 * Imports a trace file from disk the way an upload is imported: the same redact-and-import sequence
 * (server/trace/import/redact-and-import.ts) on a temp copy. Used by `tracefold import` (unless
 * --no-redact) and the demo seed, so no path into the database stores a trace's secrets by default.
 * The temp copy is always removed.
 */
export async function importRedactedFile(options: ImportRedactedOptions): Promise<RedactedImportOutcome> {
  const { db, store } = options;
  const dir = join(dataDir(), "tmp", "imports");
  await mkdir(dir, { recursive: true });
  const redactedPath = join(dir, `${randomUUID()}.redacted`);
  try {
    return await redactAndImport({
      db,
      store,
      path: options.path,
      redactedPath,
      fileName: options.fileName ?? basename(options.path),
      format: options.format,
      tokenizer: options.tokenizer,
      userId: options.userId,
    });
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
