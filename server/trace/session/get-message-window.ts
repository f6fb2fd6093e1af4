import type { Db } from "../../db/client";
import { annotateMessages } from "./annotate-messages";
import { MESSAGE_ROW_SELECT, parseParts, toMessageView } from "./message-view";
import type { MessageWindow } from "./types";

/** Most messages one request may ask for (the route handler refuses more; this clamps). */
export const MAX_WINDOW = 200;
/** Characters of each part's text sent with a window; the rest comes with getMessage. */
export const DEFAULT_PREVIEW_CHARS = 2400;

export interface MessageWindowOptions {
  from: number;
  /** Exclusive. */
  to: number;
  previewChars?: number;
}

/**
 * Messages [from, to) of a session with their parts, each text cut to `previewChars` and flagged
 * `truncated` with its full length and line count. The range is clamped to the session and to
 * MAX_WINDOW messages; an empty range (from ≥ messageCount) returns no messages, not an error.
 * Null when the session does not exist.
 */
export async function getMessageWindow(db: Db, sessionId: string, options: MessageWindowOptions): Promise<MessageWindow | null> {
  const session = await db.traceSession.findUnique({ where: { id: sessionId }, select: { messageCount: true } });
  if (!session) return null;
  const previewChars = Math.max(1, Math.floor(options.previewChars ?? DEFAULT_PREVIEW_CHARS));
  const from = clamp(Math.floor(options.from), 0, session.messageCount);
  const to = clamp(Math.floor(options.to), from, Math.min(session.messageCount, from + MAX_WINDOW));
  const rows =
    to > from
      ? await db.traceMessage.findMany({
          where: { sessionId, index: { gte: from, lt: to } },
          select: MESSAGE_ROW_SELECT,
          orderBy: { index: "asc" },
        })
      : [];
  const parsed = rows.map((row) => ({ row, parts: parseParts(row.parts) }));
  const links = await annotateMessages(
    db,
    sessionId,
    parsed.map(({ row, parts }) => ({ index: row.index, parts })),
  );
  return {
    sessionId,
    from,
    to,
    messageCount: session.messageCount,
    previewChars,
    messages: parsed.map(({ row, parts }) => toMessageView(row, parts, links, previewChars)),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, min), max) : min;
}
