import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { createAnalyzer, type AnalyzedSession } from "@/lib/analysis/analyze";
import type { FormatId, ParseIssue } from "@/lib/trace/model";
import { parseTrace } from "@/lib/trace/parse-trace";
import type { TokenizerId } from "@/lib/tokens/tokenizer";
import type { Db } from "../../db/client";
import { sourceFromFile } from "../files/file-source";
import { sha256OfFile, type BlobStore } from "../../storage/blob-store";
import { writeSessions, type RedactionRecord } from "./write-sessions";

export type ImportOutcome =
  | { status: "imported"; uploadId: string; format: FormatId; sessions: ImportedSessionSummary[]; warnings: ParseIssue[] }
  | { status: "duplicate"; uploadId: string; format: string; sessions: ImportedSessionSummary[] }
  | { status: "failed"; format: string; errors: ParseIssue[] };

export interface ImportedSessionSummary {
  id: string;
  title: string;
  messages: number;
  toolCalls: number;
}

export interface ImportOptions {
  db: Db;
  store: BlobStore;
  /** Path of the file on disk (an upload is first written to a temp file). */
  path: string;
  /** Name shown to users and in issues (the uploaded file name). */
  fileName?: string;
  format?: FormatId;
  tokenizer?: TokenizerId;
  userId?: string;
  /** The upload's redaction report, written in the same transaction (uploads redact before importing). */
  redaction?: RedactionRecord;
}

/**
 * Imports one trace file: detects duplicates by sha256, parses, indexes, keeps the raw bytes in the
 * blob store and writes everything in one transaction. A file with any error-severity issue is
 * refused whole: nothing is written and the raw bytes are not kept.
 */
export async function importTraceFile(options: ImportOptions): Promise<ImportOutcome> {
  const { db, store, path } = options;
  const fileName = options.fileName ?? basename(path);
  const sha256 = await sha256OfFile(path);
  const existing = await db.upload.findUnique({ where: { sha256 }, include: { sessions: { orderBy: { ordinal: "asc" } } } });
  if (existing) {
    return { status: "duplicate", uploadId: existing.id, format: existing.format, sessions: existing.sessions.map(toSummary) };
  }

  const parsed = await parseTrace(await sourceFromFile(path, fileName), options.format ? { format: options.format } : {});
  const errors = parsed.issues.filter((i) => i.severity === "error");
  if (parsed.format === "unknown" || errors.length > 0) return { status: "failed", format: parsed.format, errors };
  if (parsed.sessions.length === 0) {
    return { status: "failed", format: parsed.format, errors: [{ file: fileName, line: 1, message: "the file contains no sessions", severity: "error" }] };
  }

  const analyzer = createAnalyzer(options.tokenizer ? { tokenizer: options.tokenizer } : {});
  const analyzed: AnalyzedSession[] = parsed.sessions.map((s) => analyzer.analyze(s));
  const blob = await store.putFile(path, "uploads");
  try {
    const warnings = parsed.issues.filter((i) => i.severity === "warning");
    const { size } = await stat(path);
    const upload = await writeSessions(db, {
      upload: { sha256, fileName, bytes: size, format: parsed.format, storageKey: blob.key, warnings, uploadedById: options.userId },
      sessions: analyzed,
      redaction: options.redaction,
    });
    return { status: "imported", uploadId: upload.id, format: parsed.format, sessions: upload.sessions, warnings };
  } catch (error) {
    // A concurrent import of the same bytes won the race on the unique sha256: report it as such.
    // Its upload refers to this same content-addressed blob, so the blob stays even if this put created it.
    const raced = await db.upload.findUnique({ where: { sha256 }, include: { sessions: { orderBy: { ordinal: "asc" } } } });
    if (raced) return { status: "duplicate", uploadId: raced.id, format: raced.format, sessions: raced.sessions.map(toSummary) };
    if (blob.created) await store.remove(blob.key);
    throw error;
  }
}

function toSummary(s: { id: string; title: string; messageCount: number; toolCalls: number }): ImportedSessionSummary {
  return { id: s.id, title: s.title, messages: s.messageCount, toolCalls: s.toolCalls };
}
