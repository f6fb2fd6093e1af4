import { itemContextKey, type QueueItem } from "@/lib/review";
import type { Db } from "../db/client";
import { openSessionReplay } from "./cut-context";
import { storeItemContext } from "./item-context";

export interface ContextProgress {
  /** Distinct contexts the queue's items need (items of one cut may share one). */
  total: number;
  /** Of those, stored. */
  ready: number;
}

/**
 * Computes and stores the view data of every item of a queue that has none yet, one session at a
 * time (the session is loaded once for all its cuts) and one cut per turn of the event loop, so a
 * studio preparing a queue keeps answering requests. Reports progress after each cut. Safe to run
 * twice or beside reviewers opening items: a context stored by someone else is skipped or kept.
 */
export async function prepareQueueContexts(db: Db, queueId: string, onProgress?: (progress: ContextProgress) => void): Promise<ContextProgress> {
  const queue = await db.reviewQueue.findUnique({ where: { id: queueId }, select: { runId: true } });
  // A calibration queue has no run: its items' views are built from their gold units when opened.
  if (!queue?.runId) return { total: 0, ready: 0 };
  const items = await queueItems(db, queueId);
  const wanted = new Map<string, QueueItem>();
  for (const item of items) wanted.set(itemContextKey(item), item);
  const present = await storedKeys(db, [...wanted.keys()]);
  const progress = { total: wanted.size, ready: present.size };
  onProgress?.({ ...progress });
  const bySession = new Map<string, Map<number, QueueItem[]>>();
  for (const [key, item] of wanted) {
    if (present.has(key)) continue;
    const cuts = bySession.get(item.ref.sessionId) ?? new Map<number, QueueItem[]>();
    cuts.set(item.ref.cut, [...(cuts.get(item.ref.cut) ?? []), item]);
    bySession.set(item.ref.sessionId, cuts);
  }
  for (const [sessionId, cuts] of bySession) {
    const replay = await openSessionReplay(db, queue.runId, sessionId);
    if (!replay) continue;
    for (const [cut, cutItems] of cuts) {
      await new Promise((resolve) => setImmediate(resolve));
      const context = await replay(cut);
      if (!context) continue;
      for (const item of cutItems) if (await storeItemContext(db, queue.runId, item, context)) progress.ready++;
      onProgress?.({ ...progress });
    }
  }
  return progress;
}

/** How many of a queue's item contexts are stored (the queue page's "preparing" figure). */
export async function queueContextProgress(db: Db, queueId: string): Promise<ContextProgress> {
  // View-verdict items (calibration queues) are built from their stored gold unit, never prepared.
  const keys = new Set((await queueItems(db, queueId)).filter((i) => i.queue !== "view_verdict").map(itemContextKey));
  return { total: keys.size, ready: (await storedKeys(db, [...keys])).size };
}

async function queueItems(db: Db, queueId: string): Promise<QueueItem[]> {
  const rows = await db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" }, select: { payload: true } });
  return rows.map((r) => JSON.parse(r.payload) as QueueItem);
}

async function storedKeys(db: Db, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db.reviewContext.findMany({ where: { key: { in: keys.slice(i, i + 500) } }, select: { key: true } });
    for (const r of rows) found.add(r.key);
  }
  return found;
}
