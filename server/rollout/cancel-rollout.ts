import type { Db } from "../db/client";
import { canCancelRollout, isRolloutStatus, type RolloutStatus } from "./rollout-status";

export type RolloutControlOutcome = { ok: true; status: RolloutStatus } | { ok: false; code: "not_found" | "conflict"; message: string };

/**
 * Cancels a rollout run. A queued run stops at once; a running one gets its cancel flag, which the
 * worker reads before each session: the sessions stored so far stay, and resume continues after them.
 */
export async function cancelRollout(db: Db, runId: string): Promise<RolloutControlOutcome> {
  const run = await db.rolloutRun.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run || !isRolloutStatus(run.status)) return { ok: false, code: "not_found", message: "no such rollout run" };
  if (!canCancelRollout(run.status)) return { ok: false, code: "conflict", message: `the run is ${run.status}; only queued or running runs can be cancelled` };
  const queued = await db.rolloutRun.updateMany({ where: { id: runId, status: "queued" }, data: { status: "cancelled", finishedAt: new Date() } });
  if (queued.count === 1) return { ok: true, status: "cancelled" };
  await db.rolloutRun.updateMany({ where: { id: runId, status: "running" }, data: { cancelRequested: true } });
  return { ok: true, status: "running" };
}
