import type { LineRedaction } from "@/lib/redact";
import type { Db } from "../../db/client";
import type { RedactionRecord } from "./write-sessions";

/** Report entries kept per upload; the count is always the true total. */
export const MAX_STORED_REDACTIONS = 10_000;
/** Report entries sent in one upload answer (the full report is at /api/uploads/<id>/redactions). */
export const MAX_REDACTIONS_IN_RESPONSE = 100;

/** One redacted secret: kind, 1-based line, UTF-16 offsets within the line, fingerprint. Never the secret. */
export interface RedactionEntry {
  kind: string;
  line: number;
  start: number;
  end: number;
  fingerprint: string;
}

/** What the upload answer and the report route say about an upload's redaction. */
export interface RedactionSummary {
  count: number;
  entries: RedactionEntry[];
  /** Whether the unredacted original is kept (only when an admin turned keepRawOriginals on). */
  rawKept: boolean;
  emailsRedacted: boolean;
}

/** The row to store for a report (entries in line order, capped at MAX_STORED_REDACTIONS). */
export function toRedactionRecord(report: readonly LineRedaction[], rawStorageKey: string | null, emailsRedacted: boolean): RedactionRecord {
  const entries: RedactionEntry[] = report
    .slice(0, MAX_STORED_REDACTIONS)
    .map(({ kind, line, start, end, fingerprint }) => ({ kind, line, start, end, fingerprint }));
  return { count: report.length, report: JSON.stringify(entries), rawStorageKey, emailsRedacted };
}

/** An upload's redaction report, `limit` entries of it; uploads from before redaction have none. */
export async function getUploadRedaction(db: Db, uploadId: string, limit = MAX_STORED_REDACTIONS): Promise<RedactionSummary | null> {
  const row = await db.uploadRedaction.findUnique({ where: { uploadId } });
  if (!row) return null;
  const entries = (JSON.parse(row.report) as RedactionEntry[]).slice(0, limit);
  return { count: row.count, entries, rawKept: row.rawStorageKey !== null, emailsRedacted: row.emailsRedacted };
}
