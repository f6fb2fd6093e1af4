import type { FormatId } from "../../../lib/trace/model";
import type { Db } from "../../db/client";
import { insensitive } from "../../db/insensitive";
import { decodeCursor, encodeCursor } from "./session-cursor";
import type { SessionListQuery, SessionSummary } from "./schemas";

const SUMMARY_SELECT = {
  id: true,
  externalId: true,
  parentExternalId: true,
  format: true,
  title: true,
  primaryModel: true,
  messageCount: true,
  toolCalls: true,
  toolResults: true,
  tokens: true,
  tokenizer: true,
  nativeCompactions: true,
  startedAt: true,
  createdAt: true,
  uploadId: true,
  upload: { select: { fileName: true, createdAt: true } },
} as const;

type SummaryRow = {
  id: string;
  externalId: string;
  parentExternalId: string | null;
  format: string;
  title: string;
  primaryModel: string | null;
  messageCount: number;
  toolCalls: number;
  toolResults: number;
  tokens: number;
  tokenizer: string;
  nativeCompactions: number;
  startedAt: string | null;
  createdAt: Date;
  uploadId: string;
  upload: { fileName: string; createdAt: Date };
};

export type SessionPageOutcome = { ok: true; data: SessionSummary[]; nextCursor: string | null } | { ok: false; code: "invalid_request"; message: string };

/** One page of sessions, newest first, filtered by text and format (see session-cursor.ts). */
export async function listSessionsPage(db: Db, query: SessionListQuery): Promise<SessionPageOutcome> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  if (cursor === null) return { ok: false, code: "invalid_request", message: "cursor is not one this API gave (pass nextCursor of the previous page)" };
  const text = query.q ? { OR: [{ title: { contains: query.q, ...insensitive(db) } }, { externalId: { contains: query.q, ...insensitive(db) } }] } : {};
  const after = cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {};
  const rows = await db.traceSession.findMany({
    where: { AND: [text, after, query.format ? { format: query.format } : {}] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    select: SUMMARY_SELECT,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { ok: true, data: page.map(toSessionSummary), nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
}

/** One session's summary, or null. */
export async function getSessionSummary(db: Db, id: string): Promise<SessionSummary | null> {
  const row = await db.traceSession.findUnique({ where: { id }, select: SUMMARY_SELECT });
  return row ? toSessionSummary(row) : null;
}

function toSessionSummary(r: SummaryRow): SessionSummary {
  return {
    id: r.id,
    externalId: r.externalId,
    parentExternalId: r.parentExternalId,
    format: r.format as FormatId,
    title: r.title,
    model: r.primaryModel,
    messages: r.messageCount,
    toolCalls: r.toolCalls,
    toolResults: r.toolResults,
    tokens: r.tokens,
    tokenizer: r.tokenizer,
    nativeCompactions: r.nativeCompactions,
    startedAt: r.startedAt,
    uploadId: r.uploadId,
    fileName: r.upload.fileName,
    uploadedAt: r.upload.createdAt.toISOString(),
  };
}
