import type { Db } from "../../db/client";
import { annotateMessages } from "./annotate-messages";
import { MESSAGE_ROW_SELECT, parseParts, toMessageView } from "./message-view";
import type { MessageView } from "./types";

/** One message with every part in full (what "show all" fetches). Null when it does not exist. */
export async function getMessage(db: Db, sessionId: string, index: number): Promise<MessageView | null> {
  const row = await db.traceMessage.findUnique({
    where: { sessionId_index: { sessionId, index } },
    select: MESSAGE_ROW_SELECT,
  });
  if (!row) return null;
  const parts = parseParts(row.parts);
  const links = await annotateMessages(db, sessionId, [{ index: row.index, parts }]);
  return toMessageView(row, parts, links, Number.POSITIVE_INFINITY);
}
