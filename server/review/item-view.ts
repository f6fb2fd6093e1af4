import type { QueueItem, ReviewLabel } from "@/lib/review";
import type { Db } from "../db/client";
import { loadItemContext } from "./item-context";
import type { ItemView } from "./item-view-types";
import { loadLabels } from "./label-rows";

/**
 * What the labeling screen receives for one item: its stored view data (one row read: the replay
 * cut is computed when the queue is prepared, never per open — see item-context.ts) plus what
 * changes while people work on it: the asking reviewer's labels, who completed it, the comments.
 */
export async function getItemView(db: Db, queueId: string, runId: string, item: QueueItem, reviewer: string): Promise<ItemView | null> {
  const context = await loadItemContext(db, runId, item);
  if (!context) return null;
  const labels = await loadLabels(db, queueId, { itemKey: item.id });
  const latest = new Map<string, ReviewLabel>();
  for (const l of labels) latest.set(l.labelId, l);
  const comments = await db.reviewComment.findMany({ where: { item: { queueId, itemKey: item.id } }, orderBy: { createdAt: "asc" } });
  const base = {
    itemKey: item.id,
    ref: item.ref,
    sessionTitle: context.sessionTitle,
    // A reviewer's own A/B answer goes back without the side mapping: the sides stay blind while they revise.
    mine: [...latest.values()].filter((l) => l.reviewer === reviewer).map((l) => (l.kind === "ab" ? { ...l, sides: { A: "A", B: "B", swapped: false } } : l)),
    completedBy: [...new Set([...latest.values()].filter((l) => !l.retracted && l.kind !== "dependency").map((l) => l.reviewer))],
    comments: comments.map((c) => ({ author: c.author, body: c.body, createdAt: c.createdAt.toISOString() })),
  };
  if (item.queue === "dependency" && context.screen === "dependency") {
    const { prefix, prefixStart, future, candidates } = context;
    return { ...base, queue: "dependency", prefix, prefixStart, future, candidates };
  }
  if (item.queue === "ab" && context.screen === "ab") return { ...base, queue: "ab", A: context.projections[item.sides.A] ?? [], B: context.projections[item.sides.B] ?? [], future: context.future };
  if (item.queue === "failure_category" && context.screen === "failure") {
    const { policy, view, removed, evidence, objectIds } = context;
    return { ...base, queue: "failure_category", policy, view, removed, evidence, objectIds };
  }
  return null;
}
