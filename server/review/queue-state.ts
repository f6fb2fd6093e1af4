import { completionsFromLabels, currentLabels, type Clock, type LabelHistory, type Lease, type QueueItem, type QueueState } from "@/lib/review";
import type { Db } from "../db/client";
import { parseAssignees } from "./assign-items";
import { loadHistoryCached } from "./label-cache";
import { isQueueKind, overlapFor, type ReviewQueueKind } from "./queue-kinds";

/** A queue as the server works with it: settings, items in order, leases, assignments and label history. */
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
  const rows = await db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" }, select: { itemKey: true, leaseReviewer: true, leaseAcquiredAt: true, leaseExpiresAt: true, assignees: true } });
  const items = await queueItems(db, queueId, rows.map((r) => r.itemKey));
  const leases = new Map<string, Lease>();
  for (const r of rows) {
    if (r.leaseReviewer && r.leaseExpiresAt) leases.set(r.itemKey, { itemId: r.itemKey, reviewer: r.leaseReviewer, acquiredAt: r.leaseAcquiredAt?.getTime() ?? 0, expiresAt: r.leaseExpiresAt.getTime() });
  }
  const assignments = new Map<string, ReadonlySet<string>>();
  for (const r of rows) {
    const assignees = parseAssignees(r.assignees);
    if (assignees) assignments.set(r.itemKey, new Set(assignees));
  }
  const history = await loadHistoryCached(db, queueId);
  const completions = completionsFromLabels(currentLabels(history));
  return { ...meta, items, history, state: { items, completions, leases, overlap: overlapFor(meta.kind, meta.overlap), clock, assignments } };
}

/**
 * The queue's items, parsed from their payloads once per process: an item's payload never changes
 * after the queue is created (leases and assignments live in other columns), so each call reads
 * only the keys and parses payloads it has not seen. Bounded: the least recently used queue goes first.
 */
async function queueItems(db: Db, queueId: string, keys: string[]): Promise<QueueItem[]> {
  const kept = parsedItems.get(queueId) ?? new Map<string, QueueItem>();
  parsedItems.delete(queueId);
  parsedItems.set(queueId, kept);
  if (parsedItems.size > 50) parsedItems.delete(parsedItems.keys().next().value!);
  const missing = keys.filter((k) => !kept.has(k));
  for (let i = 0; i < missing.length; i += 500) {
    const rows = await db.reviewItem.findMany({ where: { queueId, itemKey: { in: missing.slice(i, i + 500) } }, select: { itemKey: true, payload: true } });
    for (const r of rows) kept.set(r.itemKey, JSON.parse(r.payload) as QueueItem);
  }
  return keys.map((k) => kept.get(k)!);
}

const parsedItems = new Map<string, Map<string, QueueItem>>();
