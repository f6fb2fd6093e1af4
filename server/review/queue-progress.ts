import { queueProgress, type Clock } from "@/lib/review";
import type { Db } from "../db/client";
import type { ReviewQueueKind } from "./queue-kinds";
import { loadQueue, type QueueOptions } from "./queue-state";

/** A queue with its progress, as the studio lists it (no Prisma rows past server/). */
export interface QueueSummary {
  id: string;
  name: string;
  kind: ReviewQueueKind;
  /** Null for a calibration queue (imported gold units, no run). */
  runId: string | null;
  runName: string | null;
  overlap: number;
  leaseMinutes: number;
  items: number;
  /** Items completed by `overlap` distinct reviewers. */
  done: number;
  /** Completions (an item counts once per reviewer who completed it). */
  labels: number;
  byReviewer: Record<string, number>;
  /** Items leased right now. */
  open: number;
  createdAt: string;
  /** How the queue was built (pair, cuts, sample and its seed) and whether it is blind. */
  options: QueueOptions;
}

export async function getQueueSummary(db: Db, queueId: string, clock: Clock): Promise<QueueSummary | null> {
  const queue = await loadQueue(db, queueId, clock);
  if (!queue) return null;
  const [progress] = queueProgress(queue.items, queue.state.completions, queue.state.overlap);
  const runName = queue.runId === null ? null : await loadRunName(db, queue.runId);
  const open = [...queue.state.leases.values()].filter((l) => clock.now() < l.expiresAt).length;
  return {
    id: queue.id,
    name: queue.name,
    kind: queue.kind,
    runId: queue.runId,
    runName,
    overlap: queue.overlap,
    leaseMinutes: queue.leaseMs / 60_000,
    items: queue.items.length,
    done: progress?.done ?? 0,
    labels: progress?.labels ?? 0,
    byReviewer: progress?.byReviewer ?? {},
    open,
    createdAt: queue.createdAt.toISOString(),
    options: queue.options,
  };
}

/** Every queue, newest first, with progress. */
export async function listQueues(db: Db, clock: Clock): Promise<QueueSummary[]> {
  const ids = await db.reviewQueue.findMany({ select: { id: true }, orderBy: { createdAt: "desc" } });
  const out: QueueSummary[] = [];
  for (const { id } of ids) {
    const summary = await getQueueSummary(db, id, clock);
    if (summary) out.push(summary);
  }
  return out;
}

/**
 * A run's name, read once per process and client: the status refresh runs after every save, and a
 * run's name is set when it is created and never changed (nor is a run deleted), so a name once
 * read stays right. A missing run is read again next time.
 */
async function loadRunName(db: Db, runId: string): Promise<string | null> {
  const known = runNames.get(db) ?? new Map<string, string>();
  runNames.set(db, known);
  const hit = known.get(runId);
  if (hit !== undefined) return hit;
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { name: true } });
  if (!run) return null;
  known.set(runId, run.name);
  if (known.size > 200) known.delete(known.keys().next().value!);
  return run.name;
}

const runNames = new WeakMap<Db, Map<string, string>>();
