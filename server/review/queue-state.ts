import { AB_CUTS, type AbCuts, type Clock, type LabelHistory, type Lease, type QueueItem, type QueueState } from "@/lib/review";
import type { Db } from "../db/client";
import { parseAssignees } from "./assign-items";
import { loadHistoryCached } from "./label-cache";
import { isQueueKind, overlapFor, type ReviewQueueKind } from "./queue-kinds";

/** A queue as the server works with it: settings, items in order, leases, assignments and label history. */
export interface LoadedQueue {
  id: string;
  name: string;
  kind: ReviewQueueKind;
  /** The evaluation run the items come from; null for a calibration queue (imported gold units). */
  runId: string | null;
  overlap: number;
  leaseMs: number;
  createdAt: Date;
  options: QueueOptions;
  items: QueueItem[];
  history: LabelHistory;
  state: QueueState;
}

/** How a queue was built and is shown, as its creator chose (create-queue.ts). */
export interface QueueOptions {
  /** Seed of the A/B side coin and of the sample. */
  seed: number;
  /** The A/B pair (null: not an A/B queue, or one built before pairs were chosen: every pair). */
  pair: [string, string] | null;
  /** A/B queues: which cuts of the pair (null for the other kinds). */
  cuts: AbCuts | null;
  /** A seeded sample: `size` items kept of `from` (null: every item). */
  sample: { size: number; from: number } | null;
  /** Failure-category queues: the judge's answer stays hidden until the reviewer has answered the item. */
  blind: boolean;
}

/**
 * A queue's settings. A queue row is written once, by createQueue, and never updated, so it is read
 * once per process and database client; a queue that does not exist (yet) is read again next time.
 */
export async function loadQueueMeta(db: Db, queueId: string) {
  const known = metaCache.get(db) ?? new Map<string, QueueMeta>();
  metaCache.set(db, known);
  const hit = known.get(queueId);
  if (hit) return hit;
  const queue = await db.reviewQueue.findUnique({ where: { id: queueId } });
  if (!queue || !isQueueKind(queue.kind)) return null;
  const options: QueueOptions = {
    seed: queue.seed,
    pair: queue.policyA && queue.policyB ? [queue.policyA, queue.policyB] : null,
    cuts: queue.kind === "ab" ? ((AB_CUTS as readonly string[]).includes(queue.cuts ?? "") ? (queue.cuts as AbCuts) : "disagreements") : null,
    sample: queue.sampleSize !== null && queue.sampledFrom !== null ? { size: queue.sampleSize, from: queue.sampledFrom } : null,
    blind: queue.blind,
  };
  const meta = {
    id: queue.id,
    name: queue.name,
    kind: queue.kind as ReviewQueueKind,
    runId: queue.runId,
    overlap: queue.overlap,
    leaseMs: queue.leaseMs,
    seed: queue.seed,
    createdAt: queue.createdAt,
    options,
  };
  known.set(queueId, meta);
  if (known.size > 200) known.delete(known.keys().next().value!);
  return meta;
}

type QueueMeta = {
  id: string;
  name: string;
  kind: ReviewQueueKind;
  runId: string | null;
  overlap: number;
  leaseMs: number;
  seed: number;
  createdAt: Date;
  options: QueueOptions;
};
const metaCache = new WeakMap<Db, Map<string, QueueMeta>>();

/**
 * Everything lib/review's navigation and progress need, read at `clock.now()`. Only what changes is
 * read per call: the items with a live lease or an assignment (a handful of rows: a lapsed lease
 * counts as none in lib/review) and the label rows not seen before; the item list itself is fixed
 * when the queue is created (createQueue writes every item in the queue's own transaction and no
 * item is added or removed later), so it is read and parsed once per process.
 */
export async function loadQueue(db: Db, queueId: string, clock: Clock): Promise<LoadedQueue | null> {
  const meta = await loadQueueMeta(db, queueId);
  if (!meta) return null;
  const items = await queueItems(db, queueId);
  const rows = await db.reviewItem.findMany({
    where: { queueId, OR: [{ leaseExpiresAt: { gt: new Date(clock.now()) } }, { assignees: { not: null } }] },
    select: { itemKey: true, leaseReviewer: true, leaseAcquiredAt: true, leaseExpiresAt: true, assignees: true },
  });
  const leases = new Map<string, Lease>();
  for (const r of rows) {
    if (r.leaseReviewer && r.leaseExpiresAt)
      leases.set(r.itemKey, {
        itemId: r.itemKey,
        reviewer: r.leaseReviewer,
        acquiredAt: r.leaseAcquiredAt?.getTime() ?? 0,
        expiresAt: r.leaseExpiresAt.getTime(),
      });
  }
  const assignments = new Map<string, ReadonlySet<string>>();
  for (const r of rows) {
    const assignees = parseAssignees(r.assignees);
    if (assignees) assignments.set(r.itemKey, new Set(assignees));
  }
  const { history, completions } = await loadHistoryCached(db, queueId);
  return { ...meta, items, history, state: { items, completions, leases, overlap: overlapFor(meta.kind, meta.overlap), clock, assignments } };
}

/**
 * The queue's items in walk order, read and parsed once per process (see loadQueue: the list never
 * changes after the queue is created). Bounded: the least recently used queue goes first.
 */
async function queueItems(db: Db, queueId: string): Promise<QueueItem[]> {
  let kept = parsedItems.get(queueId);
  parsedItems.delete(queueId);
  if (!kept) {
    kept = db.reviewItem
      .findMany({ where: { queueId }, orderBy: { position: "asc" }, select: { payload: true } })
      .then((rows) => rows.map((r) => JSON.parse(r.payload) as QueueItem));
    kept.catch(() => parsedItems.get(queueId) === kept && parsedItems.delete(queueId));
  }
  parsedItems.set(queueId, kept);
  if (parsedItems.size > 50) parsedItems.delete(parsedItems.keys().next().value!);
  return kept;
}

const parsedItems = new Map<string, Promise<QueueItem[]>>();

/**
 * One item of a queue by its key, from the same once-per-process list (a save needs the item the
 * label is about: its ref, policy or sides; reading and parsing its row per save was a query per save).
 */
export async function queueItem(db: Db, queueId: string, itemKey: string): Promise<QueueItem | undefined> {
  const items = await queueItems(db, queueId);
  let byKey = itemsByKey.get(items);
  if (!byKey) {
    byKey = new Map(items.map((item) => [item.id, item]));
    itemsByKey.set(items, byKey);
  }
  return byKey.get(itemKey);
}

const itemsByKey = new WeakMap<QueueItem[], Map<string, QueueItem>>();

/** Where an item sits in its queue's order: `position` counts from 1 ("item k of N"); null when the key is not in the queue. */
export async function queueItemPosition(db: Db, queueId: string, itemKey: string): Promise<{ position: number; total: number } | null> {
  const items = await queueItems(db, queueId);
  let positions = positionsByKey.get(items);
  if (!positions) {
    positions = new Map(items.map((item, i) => [item.id, i + 1]));
    positionsByKey.set(items, positions);
  }
  const position = positions.get(itemKey);
  return position === undefined ? null : { position, total: items.length };
}

const positionsByKey = new WeakMap<QueueItem[], Map<string, number>>();
