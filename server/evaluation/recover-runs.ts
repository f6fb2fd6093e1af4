import type { Db } from "../db/client";

/** A running run whose heartbeat is older than this belongs to a process that died (default 2 min). */
export const DEFAULT_STALE_MS = 120_000;

/**
 * Puts runs left `running` by a dead process back in the queue, to be resumed from their stored
 * results. A run counts as orphaned when its worker is not `workerId` and its heartbeat (written
 * with every batch, at least every second while units complete) is older than `staleMs`, or when
 * no worker holds it. The conditional update makes two recovering processes agree.
 */
export async function recoverOrphanedRuns(db: Db, options: { workerId: string; staleMs?: number; now?: Date }): Promise<string[]> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - (options.staleMs ?? DEFAULT_STALE_MS));
  const where = {
    status: "running",
    OR: [{ workerId: null }, { workerId: { not: options.workerId }, OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: cutoff } }] }],
  };
  const orphans = await db.evalRun.findMany({ where, select: { id: true } });
  const recovered: string[] = [];
  for (const { id } of orphans) {
    const updated = await db.evalRun.updateMany({ where: { id, ...where }, data: { status: "queued", workerId: null } });
    if (updated.count === 1) recovered.push(id);
  }
  return recovered;
}
