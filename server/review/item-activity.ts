import type { Db } from "../db/client";
import { parseAssignees } from "./assign-items";
import { getItemActivity, type ItemActivity } from "./item-view";
import { loadQueueMeta, queueItem } from "./queue-state";

export type ItemActivityOutcome = { ok: true; activity: ItemActivity } | { ok: false; code: "not_found" | "not_assigned"; message: string };

/**
 * An item's activity (the reviewer's labels on it, who completed it, its comments) for the
 * labeling screen's refresh after a save or an undo. Visible to whoever may open the item
 * (openItem's rule): the reviewer holding its lease, anyone when it is assigned to nobody, its
 * assignees, and a reviewer who labeled it before it was assigned to others.
 */
export async function loadItemActivity(db: Db, queueId: string, itemKey: string, reviewer: string): Promise<ItemActivityOutcome> {
  const item = (await loadQueueMeta(db, queueId)) ? await queueItem(db, queueId, itemKey) : undefined;
  const row = item && (await db.reviewItem.findUnique({ where: { queueId_itemKey: { queueId, itemKey } }, select: { assignees: true, leaseReviewer: true } }));
  if (!item || !row) return { ok: false, code: "not_found", message: `no item ${itemKey} in this queue` };
  const activity = await getItemActivity(db, queueId, item, reviewer);
  const assignees = parseAssignees(row.assignees);
  const mayOpen = row.leaseReviewer === reviewer || !assignees || assignees.length === 0 || assignees.includes(reviewer) || activity.mine.length > 0;
  return mayOpen ? { ok: true, activity } : { ok: false, code: "not_assigned", message: "this item is assigned to other reviewers" };
}
