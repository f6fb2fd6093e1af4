import type { AnalyzedSession } from "@/lib/analysis/analyze";
import type { ParseIssue } from "@/lib/trace/model";
import type { Db } from "../../db/client";
import type { ImportedSessionSummary } from "./import-trace-file";

/** Rows per createMany call: keeps statements under SQLite's and PostgreSQL's parameter limits. */
const BATCH = 500;
/** Large imports (hundreds of MB) take longer than Prisma's 5 s interactive-transaction default. */
const TRANSACTION_TIMEOUT_MS = 30 * 60_000;

export interface UploadRecord {
  sha256: string;
  fileName: string;
  bytes: number;
  format: string;
  storageKey: string;
  warnings: ParseIssue[];
  uploadedById?: string | undefined;
}

/** The redaction report row of an upload (server/trace/import/redaction-report.ts builds it). */
export interface RedactionRecord {
  count: number;
  report: string;
  rawStorageKey: string | null;
  emailsRedacted: boolean;
}

/** Writes an upload with its sessions, messages, objects, native compactions and redaction report atomically. */
export async function writeSessions(
  db: Db,
  input: { upload: UploadRecord; sessions: AnalyzedSession[]; redaction?: RedactionRecord | undefined },
): Promise<{ id: string; sessions: ImportedSessionSummary[] }> {
  return db.$transaction(
    async (tx) => {
      const upload = await tx.upload.create({
        data: {
          sha256: input.upload.sha256,
          fileName: input.upload.fileName,
          bytes: input.upload.bytes,
          format: input.upload.format,
          storageKey: input.upload.storageKey,
          sessionCount: input.sessions.length,
          issueCount: input.upload.warnings.length,
          issues: JSON.stringify(input.upload.warnings.slice(0, 200)),
          ...(input.upload.uploadedById ? { uploadedById: input.upload.uploadedById } : {}),
        },
      });
      const summaries: ImportedSessionSummary[] = [];
      for (const [ordinal, analyzed] of input.sessions.entries()) {
        const { stats } = analyzed;
        const row = await tx.traceSession.create({ data: { uploadId: upload.id, ordinal, ...sessionRowData(analyzed) } });
        await writeSessionContent(tx, row.id, analyzed);
        summaries.push({ id: row.id, title: row.title, messages: stats.messages, toolCalls: stats.toolCalls });
      }
      if (input.redaction) await tx.uploadRedaction.create({ data: { uploadId: upload.id, ...input.redaction } });
      return { id: upload.id, sessions: summaries };
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 60_000 },
  );
}

/** A transaction client (what `db.$transaction(async (tx) => …)` hands its callback). */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** The TraceSession columns an analyzed session determines (not its upload, ordinal or id). */
export function sessionRowData({ session, index, stats }: AnalyzedSession) {
  return {
    externalId: session.id,
    parentExternalId: session.parentId ?? null,
    format: session.format,
    title: session.title,
    primaryModel: session.models[0] ?? null,
    models: JSON.stringify(session.models),
    tools: JSON.stringify(stats.tools),
    tokenizer: index.tokenizer,
    messageCount: stats.messages,
    toolCalls: stats.toolCalls,
    toolResults: stats.toolResults,
    tokens: stats.tokens,
    providerInputTokens: stats.providerInputTokens ?? null,
    nativeCompactions: stats.nativeCompactions,
    objectCount: index.objects.length,
    startedAt: session.startedAt ?? null,
  };
}

/**
 * Writes a session's messages, context objects and native compactions under `sessionId`, inside
 * the caller's transaction. Shared by file imports and OTLP session rebuilds (which delete the
 * previous rows first), so both store a session the same way.
 */
export async function writeSessionContent(tx: Tx, sessionId: string, { session, index }: AnalyzedSession): Promise<void> {
  await insertInBatches(session.messages, (batch) =>
    tx.traceMessage.createMany({
      data: batch.map((m) => ({
        sessionId,
        index: m.index,
        role: m.role,
        parts: JSON.stringify(m.parts),
        tokens: index.messageTokens[m.index] ?? 0,
        sourceLine: m.source.line,
        records: m.records ? JSON.stringify(m.records) : null,
        timestamp: m.timestamp ?? null,
        model: m.model ?? null,
        usage: m.usage ? JSON.stringify(m.usage) : null,
        meta: m.meta ? JSON.stringify(m.meta) : null,
      })),
    }),
  );
  await insertInBatches(index.objects, (batch) =>
    tx.contextObjectRow.createMany({
      data: batch.map((o) => ({
        sessionId,
        objectId: o.id,
        kind: o.kind,
        ordinal: o.ordinal,
        tool: o.tool ?? null,
        rawTool: o.rawTool ?? null,
        firstMessage: o.firstMessage,
        lastMessage: o.lastMessage,
        partMessage: o.part?.message ?? null,
        partIndex: o.part?.part ?? null,
        callId: o.callId ?? null,
        parentObjectId: o.parentId ?? null,
        isError: o.isError ?? false,
        tokens: o.tokens,
        anchors: JSON.stringify(o.anchors),
      })),
    }),
  );
  if (session.compactions.length > 0) {
    await tx.nativeCompactionRow.createMany({
      data: session.compactions.map((c) => ({
        sessionId,
        kind: c.kind,
        beforeMessage: c.beforeMessage,
        trigger: c.trigger ?? null,
        preTokens: c.preTokens ?? null,
        summary: c.summary ?? null,
        timestamp: c.timestamp ?? null,
        sourceLine: c.source.line,
      })),
    });
  }
}

async function insertInBatches<T>(items: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) await insert(items.slice(i, i + BATCH));
}
