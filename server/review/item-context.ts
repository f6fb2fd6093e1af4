import { itemContextKey, type QueueItem } from "@/lib/review";
import type { Db } from "../db/client";
import { getCutEvidence } from "../evaluation/list-run-cuts";
import { isUniqueViolation } from "../db/unique-violation";
import { loadCutContext, type CutContext } from "./cut-context";
import { buildItemContext, type StoredItemContext } from "./item-context-build";

/**
 * An item's view data, read from its ReviewContext row (one primary-key read). Computed here only
 * when the row is missing — an item opened before its queue's preparation reached it, or a queue
 * made before contexts were stored — and then stored, so it is built once per key. Concurrent
 * opens of the same missing item in this process share one build. Null when the run or the
 * session no longer exists (deleting either deletes its contexts).
 */
export async function loadItemContext(db: Db, runId: string, item: QueueItem): Promise<StoredItemContext | null> {
  const key = itemContextKey(item);
  const row = await db.reviewContext.findUnique({ where: { key }, select: { body: true } });
  if (row) return JSON.parse(row.body) as StoredItemContext;
  const pending = building.get(key);
  if (pending) return pending;
  const made = loadCutContext(db, runId, item.ref.sessionId, item.ref.cut)
    .then((context) => (context ? storeItemContext(db, runId, item, context) : null))
    .finally(() => building.delete(key));
  building.set(key, made);
  return made;
}

const building = new Map<string, Promise<StoredItemContext | null>>();

/** Builds an item's view data from its cut context and stores it under its key (a row another process stored first is kept). */
export async function storeItemContext(db: Db, runId: string, item: QueueItem, context: CutContext): Promise<StoredItemContext | null> {
  const session = await db.traceSession.findUnique({ where: { id: item.ref.sessionId }, select: { title: true } });
  if (!session) return null;
  const evidence = item.queue === "failure_category" ? await getCutEvidence(db, runId, `${item.ref.sessionId}#${item.ref.cut}#${item.policy}`) : null;
  const stored = buildItemContext(context, item, session.title, evidence);
  try {
    await db.reviewContext.create({
      data: { key: itemContextKey(item), runId, sessionId: item.ref.sessionId, cut: item.ref.cut, body: JSON.stringify(stored) },
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return stored;
}
