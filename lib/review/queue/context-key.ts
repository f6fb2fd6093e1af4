import { cutKey, type QueueItem } from "./items";

/**
 * Bumped whenever the stored view data of an item changes shape or meaning (server/review's
 * StoredItemContext, the part-text caps, the projection): older rows are then never read again and
 * each item's context is computed afresh on its next open.
 */
export const ITEM_CONTEXT_VERSION = 1;

/**
 * The key an item's precomputed view data is stored under. It names every input of that data: the
 * evaluation run (whose settings — policies, tokenizer, trigger level — are fixed at creation), the
 * stored session (whose messages never change once imported), the cut, what the screen shows
 * (the dependency screen; one policy's failure view; an unordered A/B pair of policies) and the
 * format version. So a context is computed once and reused by every queue that shows the same
 * thing — a second queue on the same run, an A/B queue with another seed — and never recomputed
 * while those inputs are unchanged. Pure: same item, same key.
 */
export function itemContextKey(item: QueueItem): string {
  const base = `v${ITEM_CONTEXT_VERSION}|${cutKey(item.ref)}`;
  if (item.queue === "dependency") return `${base}|dependency`;
  if (item.queue === "failure_category") return `${base}|failure|${item.policy}`;
  if (item.queue === "view_verdict") return `${base}|view|${item.policy}|${item.budget ?? ""}|${item.viewDigest}`;
  return `${base}|ab|${[item.sides.A, item.sides.B].sort().join("|")}`;
}
