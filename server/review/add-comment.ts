import { z } from "zod";
import type { Db } from "../db/client";

export const CommentSchema = z.object({
  queueId: z.string().min(1),
  itemKey: z.string().min(1),
  body: z.string().trim().min(1, "write a comment first").max(4_000, "a comment is at most 4000 characters"),
});

/** A comment on any item of a queue (stored as plain text, shown as text). */
export async function addComment(
  db: Db,
  input: z.infer<typeof CommentSchema>,
  author: { id: string; email: string },
): Promise<{ ok: true } | { ok: false; code: "not_found"; message: string }> {
  const item = await db.reviewItem.findUnique({ where: { queueId_itemKey: { queueId: input.queueId, itemKey: input.itemKey } }, select: { id: true } });
  if (!item) return { ok: false, code: "not_found", message: `no item ${input.itemKey} in this queue` };
  await db.reviewComment.create({ data: { itemId: item.id, authorId: author.id, author: author.email, body: input.body } });
  return { ok: true };
}
