import type { Db } from "../db/client";

/** One row of the traces table: plain, serialisable data (no Prisma types past server/). */
export interface TraceSessionRow {
  id: string;
  title: string;
  format: string;
  /** The session's most frequent model, or null when the format records none. */
  model: string | null;
  messages: number;
  toolCalls: number;
  /** Normalised tool names used in the session, most frequent first. */
  tools: string[];
  /** Estimated tokens of the whole session (the studio's tokenizer). */
  tokens: number;
  /** The largest prompt the provider itself reported, when the trace carries usage. */
  providerInputTokens: number | null;
  nativeCompactions: number;
  fileName: string;
  /** When the session started, as the trace wrote it (ISO-8601; Aider's has no zone); null when unknown. */
  startedAt: string | null;
  /** ISO-8601 time the file was uploaded. */
  uploadedAt: string;
}

export interface ListSessionsResult {
  rows: TraceSessionRow[];
  /** All sessions in the database; larger than rows.length when the list was capped. */
  total: number;
}

/**
 * Lists sessions newest upload first for the traces table. The table sorts and filters in the
 * browser, so the list is capped (`limit`) to keep the page light; `total` tells the UI when it was.
 */
export async function listSessions(db: Db, options: { limit?: number } = {}): Promise<ListSessionsResult> {
  const limit = options.limit ?? 5000;
  const [rows, total] = await Promise.all([
    db.traceSession.findMany({
      orderBy: [{ createdAt: "desc" }, { uploadId: "asc" }, { ordinal: "asc" }],
      take: limit,
      select: {
        id: true,
        title: true,
        format: true,
        primaryModel: true,
        messageCount: true,
        toolCalls: true,
        tools: true,
        tokens: true,
        providerInputTokens: true,
        nativeCompactions: true,
        startedAt: true,
        createdAt: true,
        upload: { select: { fileName: true, createdAt: true } },
      },
    }),
    db.traceSession.count(),
  ]);
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      title: r.title,
      format: r.format,
      model: r.primaryModel,
      messages: r.messageCount,
      toolCalls: r.toolCalls,
      tools: parseStringArray(r.tools),
      tokens: r.tokens,
      providerInputTokens: r.providerInputTokens,
      nativeCompactions: r.nativeCompactions,
      fileName: r.upload.fileName,
      startedAt: r.startedAt,
      uploadedAt: r.upload.createdAt.toISOString(),
    })),
  };
}

/** TraceSession.tools is a JSON array stored as text; a malformed value shows as "no tools". */
function parseStringArray(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
