import { LabelState, ReviewLabelSchema, type LabelHistory, type ReviewLabel } from "@/lib/review";
import type { Db } from "../db/client";

/**
 * A queue's label history and completions, kept per process and brought up to date with the rows
 * added since, instead of re-read and rebuilt. Navigation and progress need them on every open and
 * every status refresh — several times per save with fifty reviewers at work — and reading every
 * row id of the queue each time, then rebuilding from every label, made each request cost more
 * the longer the queue was worked on (tests/db/review-label-cache.test.ts; `npm run bench:load`).
 *
 * Why counting is enough: label rows are append-only. A new version, a retraction or an import is
 * a new row; no row is updated, and rows are deleted only with their queue. So when the queue has
 * exactly as many rows as this process has kept, the kept rows are all of them. Each call runs ONE
 * statement that returns the queue's row count and the ids of its newest rows (by savedAt, an
 * index) in the same snapshot: unchanged → nothing else is read; a few new rows, all among the
 * newest → their bodies are read and added (lib/review's LabelState, in place); anything else (a label import
 * larger than the window, a row that committed late with an older savedAt, another server's clock
 * running behind) → every id is read and the missing rows fetched, as before. A count of zero
 * with rows kept means the queue was deleted: the entry starts over. Correct in every case, cheap
 * in the common one.
 * Bounded: the least recently used queue goes first.
 */
export async function loadHistoryCached(db: Db, queueId: string): Promise<CachedHistory> {
  const entry = cache.get(queueId) ?? { kept: new Set<string>(), state: new LabelState() };
  cache.delete(queueId);
  cache.set(queueId, entry);
  if (cache.size > CACHE_QUEUES) cache.delete(cache.keys().next().value!);

  const { total, ids } = await newestRows(db, queueId);
  if (total === 0 && entry.kept.size > 0) {
    // The queue's rows are gone (deleted with it): start over.
    entry.kept = new Set();
    entry.state = new LabelState();
  }
  const fresh = ids.filter((id) => !entry.kept.has(id));
  // Nothing newer than what is kept (a concurrent request may already have applied a later snapshot).
  if (fresh.length === 0 && total <= entry.kept.size) return view(entry);
  // Kept rows are never deleted but with the queue, so kept + fresh = total means fresh is everything new.
  if (entry.kept.size + fresh.length === total) await apply(db, entry, fresh);
  else await catchUp(db, queueId, entry);
  return view(entry);
}

/**
 * A queue's history and the completions it implies (lib/review's), with the number of label rows it
 * was built from. The maps are the cache's own, updated in place as labels arrive: read them
 * synchronously, or copy what must stay fixed across an `await`.
 */
export interface CachedHistory {
  rows: number;
  history: LabelHistory;
  completions: LabelState["completions"];
}

const CACHE_QUEUES = 50;
/** How many of the newest rows each call looks at: more than arrive between two requests of a busy queue. */
const NEWEST_WINDOW = 64;
const cache = new Map<string, Entry>();

interface Entry {
  /** Ids of the rows whose labels are in `state`. */
  kept: Set<string>;
  state: LabelState;
}

function view(entry: Entry): CachedHistory {
  return { rows: entry.kept.size, history: entry.state.history, completions: entry.state.completions };
}

/** The queue's row count and its newest rows' ids, from one statement (one snapshot on both engines). */
async function newestRows(db: Db, queueId: string): Promise<{ total: number; ids: string[] }> {
  const rows = await db.$queryRaw<{ id: string | null; total: bigint | number }[]>`
    SELECT n."id", c."total" FROM (SELECT COUNT(*) AS "total" FROM "ReviewLabelRow" WHERE "queueId" = ${queueId}) c
    LEFT JOIN (SELECT "id" FROM "ReviewLabelRow" WHERE "queueId" = ${queueId} ORDER BY "savedAt" DESC LIMIT ${NEWEST_WINDOW}) n ON TRUE`;
  return { total: Number(rows[0]?.total ?? 0), ids: rows.flatMap((r) => (r.id === null ? [] : [r.id])) };
}

/** Reads every row id of the queue and applies the rows not kept. */
async function catchUp(db: Db, queueId: string, entry: Entry): Promise<void> {
  const ids = await db.reviewLabelRow.findMany({ where: { queueId }, select: { id: true } });
  await apply(
    db,
    entry,
    ids.map((r) => r.id).filter((id) => !entry.kept.has(id)),
  );
}

/**
 * Reads the rows' bodies and extends the state with them, all or nothing (a row that does not parse
 * fails the request). Two requests may catch up at once: rows the other one applied meanwhile are
 * left out, and whatever is left still brings every earlier version along (each request's set was
 * complete for its snapshot, and the kept set only grows).
 */
async function apply(db: Db, entry: Entry, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows: { id: string; body: string }[] = [];
  for (let i = 0; i < ids.length; i += 500)
    rows.push(...(await db.reviewLabelRow.findMany({ where: { id: { in: ids.slice(i, i + 500) } }, select: { id: true, body: true } })));
  const unseen = rows.filter((r) => !entry.kept.has(r.id));
  entry.state.add(unseen.map((r) => ReviewLabelSchema.parse(JSON.parse(r.body)) as ReviewLabel));
  for (const r of unseen) entry.kept.add(r.id);
}
