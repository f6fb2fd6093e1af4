import { buildHistory, completionsFromLabels, currentLabels, ReviewLabelSchema, type LabelHistory, type ReviewLabel } from "@/lib/review";
import type { Db } from "../db/client";

/**
 * A queue's label history, parsed once per row. Label rows are append-only (a new version, a
 * retraction or an import is a new row; none is updated or deleted but with its queue), so a row
 * parsed once stays right: each call reads the queue's row ids (an index scan), parses only the
 * rows it has not seen and rebuilds the history from the kept labels. Navigation and progress read
 * the history on every open and status refresh; parsing every label body through the schema each
 * time grew with the labels and held the event loop that saves share. Bounded: the least recently
 * used queue goes first. The built history (and its completions) is kept too and reused while no
 * row was added, so it is not rebuilt for every request.
 */
export async function loadHistoryCached(db: Db, queueId: string): Promise<CachedHistory> {
  const ids = await db.reviewLabelRow.findMany({ where: { queueId }, select: { id: true } });
  const entry = cache.get(queueId) ?? { kept: new Map<string, ReviewLabel>(), built: null };
  cache.delete(queueId);
  cache.set(queueId, entry);
  if (cache.size > CACHE_QUEUES) cache.delete(cache.keys().next().value!);
  const { kept } = entry;
  const missing = ids.map((r) => r.id).filter((id) => !kept.has(id));
  for (let i = 0; i < missing.length; i += 500) {
    const rows = await db.reviewLabelRow.findMany({ where: { id: { in: missing.slice(i, i + 500) } }, select: { id: true, body: true } });
    for (const row of rows) kept.set(row.id, ReviewLabelSchema.parse(JSON.parse(row.body)));
  }
  // Rows are only ever added (or deleted with their queue): the same number of rows, none new, is the same set.
  if (entry.built && missing.length === 0 && entry.built.rows === ids.length) return entry.built;
  const present = new Set(ids.map((r) => r.id));
  const labels = [...kept].filter(([id]) => present.has(id)).map(([, label]) => label);
  const history = buildHistory(labels);
  entry.built = { rows: ids.length, history, completions: completionsFromLabels(currentLabels(history)) };
  return entry.built;
}

/** A queue's history and the completions it implies (lib/review's), built once per set of label rows. */
export interface CachedHistory {
  rows: number;
  history: LabelHistory;
  completions: ReturnType<typeof completionsFromLabels>;
}

const CACHE_QUEUES = 50;
const cache = new Map<string, { kept: Map<string, ReviewLabel>; built: CachedHistory | null }>();
