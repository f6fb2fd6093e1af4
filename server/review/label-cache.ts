import { buildHistory, ReviewLabelSchema, type LabelHistory, type ReviewLabel } from "@/lib/review";
import type { Db } from "../db/client";

/**
 * A queue's label history, parsed once per row. Label rows are append-only (a new version, a
 * retraction or an import is a new row; none is updated or deleted but with its queue), so a row
 * parsed once stays right: each call reads the queue's row ids (an index scan), parses only the
 * rows it has not seen and rebuilds the history from the kept labels. Navigation and progress read
 * the history on every open and status refresh; parsing every label body through the schema each
 * time grew with the labels and held the event loop that saves share. Bounded: the least recently
 * used queue goes first.
 */
export async function loadHistoryCached(db: Db, queueId: string): Promise<LabelHistory> {
  const ids = await db.reviewLabelRow.findMany({ where: { queueId }, select: { id: true } });
  const kept = cache.get(queueId) ?? new Map<string, ReviewLabel>();
  cache.delete(queueId);
  cache.set(queueId, kept);
  if (cache.size > CACHE_QUEUES) cache.delete(cache.keys().next().value!);
  const missing = ids.map((r) => r.id).filter((id) => !kept.has(id));
  for (let i = 0; i < missing.length; i += 500) {
    const rows = await db.reviewLabelRow.findMany({ where: { id: { in: missing.slice(i, i + 500) } }, select: { id: true, body: true } });
    for (const row of rows) kept.set(row.id, ReviewLabelSchema.parse(JSON.parse(row.body)));
  }
  const present = new Set(ids.map((r) => r.id));
  const labels = [...kept].filter(([id]) => present.has(id)).map(([, label]) => label);
  labels.sort((a, b) => (a.labelId < b.labelId ? -1 : a.labelId > b.labelId ? 1 : a.version - b.version));
  return buildHistory(labels);
}

const CACHE_QUEUES = 50;
const cache = new Map<string, Map<string, ReviewLabel>>();
