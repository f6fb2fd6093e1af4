import { completionsFromLabels, currentLabels, type Clock, type LabelHistory, type Lease, type QueueItem, type QueueState } from "@/lib/review";
import type { Db } from "../db/client";
import { loadHistory } from "./label-rows";
import { isQueueKind, overlapFor, type ReviewQueueKind } from "./queue-kinds";

/** A queue as the server works with it: settings, items in order, leases and label history. */
export interface LoadedQueue {
  id: string;
  name: string;
  kind: ReviewQueueKind;
  runId: string;
  overlap: number;
  leaseMs: number;
  items: QueueItem[];
  history: LabelHistory;
  state: QueueState;
}

export async function loadQueueMeta(db: Db, queueId: string) {
  const queue = await db.reviewQueue.findUnique({ where: { id: queueId } });
  if (!queue || !isQueueKind(queue.kind)) return null;
  return { id: queue.id, name: queue.name, kind: queue.kind as ReviewQueueKind, runId: queue.runId, overlap: queue.overlap, leaseMs: queue.leaseMs, seed: queue.seed, createdAt: queue.createdAt };
}

/** Everything lib/review's navigation and progress need, read at `clock.now()`. */
export async function loadQueue(db: Db, queueId: string, clock: Clock): Promise<LoadedQueue | null> {
  const meta = await loadQueueMeta(db, queueId);
  if (!meta) return null;
  const rows = await db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" }, select: { payload: true, itemKey: true, leaseReviewer: true, leaseAcquiredAt: true, leaseExpiresAt: true } });
  const items = rows.map((r) => JSON.parse(r.payload) as QueueItem);
  const leases = new Map<string, Lease>();
  for (const r of rows) {
    if (r.leaseReviewer && r.leaseExpiresAt) leases.set(r.itemKey, { itemId: r.itemKey, reviewer: r.leaseReviewer, acquiredAt: r.leaseAcquiredAt?.getTime() ?? 0, expiresAt: r.leaseExpiresAt.getTime() });
  }
  const history = await loadHistory(db, queueId);
  const completions = completionsFromLabels(currentLabels(history));
  return { ...meta, items, history, state: { items, completions, leases, overlap: overlapFor(meta.kind, meta.overlap), clock } };
}
