import { queueProgress, type Clock } from "@/lib/review";
import type { Db } from "../db/client";
import type { ReviewQueueKind } from "./queue-kinds";
import { loadQueue } from "./queue-state";

/** A queue with its progress, as the studio lists it (no Prisma rows past server/). */
export interface QueueSummary {
  id: string;
  name: string;
  kind: ReviewQueueKind;
  runId: string;
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
}

export async function getQueueSummary(db: Db, queueId: string, clock: Clock): Promise<QueueSummary | null> {
  const queue = await loadQueue(db, queueId, clock);
  if (!queue) return null;
  const [progress] = queueProgress(queue.items, queue.state.completions, queue.state.overlap);
  const run = await db.evalRun.findUnique({ where: { id: queue.runId }, select: { name: true } });
  const meta = await db.reviewQueue.findUniqueOrThrow({ where: { id: queueId }, select: { createdAt: true } });
  const open = [...queue.state.leases.values()].filter((l) => clock.now() < l.expiresAt).length;
  return {
    id: queue.id,
    name: queue.name,
    kind: queue.kind,
    runId: queue.runId,
    runName: run?.name ?? null,
    overlap: queue.overlap,
    leaseMinutes: queue.leaseMs / 60_000,
    items: queue.items.length,
    done: progress?.done ?? 0,
    labels: progress?.labels ?? 0,
    byReviewer: progress?.byReviewer ?? {},
    open,
    createdAt: meta.createdAt.toISOString(),
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
