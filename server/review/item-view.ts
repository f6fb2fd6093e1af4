import type { QueueItem, ReviewLabel, ViewVerdictItem } from "@/lib/review";
import type { Db } from "../db/client";
import { loadItemContext } from "./item-context";
import type { BlindState, ItemBase, ItemView } from "./item-view-types";
import { loadLabels } from "./label-rows";
import { loadQueueMeta, queueItemPosition } from "./queue-state";
import { loadViewVerdictContext } from "./view-verdict-context";

/**
 * What the labeling screen receives for one item: its stored view data (one row read: the replay
 * cut is computed when the queue is prepared, never per open — see item-context.ts) plus what
 * changes while people work on it (getItemActivity).
 */
export async function getItemView(db: Db, queueId: string, runId: string | null, item: QueueItem, reviewer: string): Promise<ItemView | null> {
  if (item.queue === "view_verdict") return getViewVerdictItem(db, queueId, item, reviewer);
  if (runId === null) return null;
  const context = await loadItemContext(db, runId, item);
  if (!context) return null;
  const [meta, at, activity] = await Promise.all([
    loadQueueMeta(db, queueId),
    queueItemPosition(db, queueId, item.id),
    getItemActivity(db, queueId, item, reviewer),
  ]);
  const base = { itemKey: item.id, ref: item.ref, sessionTitle: context.sessionTitle, position: at?.position ?? 0, total: at?.total ?? 0, ...activity };
  if (item.queue === "dependency" && context.screen === "dependency") {
    const { prefix, prefixStart, future, candidates } = context;
    return { ...base, queue: "dependency", prefix, prefixStart, future, candidates };
  }
  if (item.queue === "ab" && context.screen === "ab")
    return { ...base, queue: "ab", A: context.projections[item.sides.A] ?? [], B: context.projections[item.sides.B] ?? [], future: context.future };
  if (item.queue === "failure_category" && context.screen === "failure") {
    const { policy, view, removed, evidence, objectIds } = context;
    const blind = blindState(meta?.options.blind ?? false, activity.mine);
    // Blind and not answered yet: the judge's evidence (its categories, its culprit) never leaves the server.
    return { ...base, queue: "failure_category", blind, policy, view, removed, evidence: blind === "hidden" ? null : evidence, objectIds };
  }
  return null;
}

/** A calibration item: built from its gold unit, never from a run. */
async function getViewVerdictItem(db: Db, queueId: string, item: ViewVerdictItem, reviewer: string): Promise<ItemView | null> {
  const context = await loadViewVerdictContext(db, queueId, item);
  if (!context) return null;
  const [at, activity] = await Promise.all([queueItemPosition(db, queueId, item.id), getItemActivity(db, queueId, item, reviewer)]);
  const { sessionTitle, view, sidecars, future } = context;
  return {
    itemKey: item.id,
    ref: item.ref,
    sessionTitle,
    position: at?.position ?? 0,
    total: at?.total ?? 0,
    ...activity,
    queue: "view_verdict",
    view,
    sidecars,
    future,
  };
}

/** A failure item is revealed to a reviewer once they have saved any answer on it (an undo does not hide again what they saw). */
export function blindState(blindQueue: boolean, mine: readonly ReviewLabel[]): BlindState {
  if (!blindQueue) return "off";
  return mine.some((l) => l.kind === "failure_category") ? "revealed" : "hidden";
}

/** The part of an item's view that changes while people work on it (what a save or an undo can change). */
export type ItemActivity = Pick<ItemBase, "mine" | "completedBy" | "comments">;

/**
 * The asking reviewer's labels on the item (latest version of each thread), who completed it, and
 * its comments: two indexed reads. The labeling screen reloads only this after a save or an undo
 * (item-activity.ts): the item's stored context — the conversation, tens of kilobytes to read,
 * serialize and compress — does not change, and reopening the whole item made every save cost an
 * open.
 */
export async function getItemActivity(db: Db, queueId: string, item: QueueItem, reviewer: string): Promise<ItemActivity> {
  const labels = await loadLabels(db, queueId, { itemKey: item.id });
  const latest = new Map<string, ReviewLabel>();
  for (const l of labels) latest.set(l.labelId, l);
  const comments = await db.reviewComment.findMany({ where: { item: { queueId, itemKey: item.id } }, orderBy: { createdAt: "asc" } });
  return {
    // A reviewer's own A/B answer goes back without the side mapping: the sides stay blind while they revise.
    mine: [...latest.values()].filter((l) => l.reviewer === reviewer).map((l) => (l.kind === "ab" ? { ...l, sides: { A: "A", B: "B", swapped: false } } : l)),
    completedBy: [...new Set([...latest.values()].filter((l) => !l.retracted && l.kind !== "dependency").map((l) => l.reviewer))],
    comments: comments.map((c) => ({ author: c.author, body: c.body, createdAt: c.createdAt.toISOString() })),
  };
}
