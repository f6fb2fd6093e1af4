import type { Db } from "../db/client";
import type { RolloutControlOutcome } from "./cancel-rollout";
import { canResumeRollout, isRolloutStatus } from "./rollout-status";

/** Puts a cancelled or failed run back in the queue; its stored sessions are kept and skipped. The caller queues its job. */
export async function resumeRollout(db: Db, runId: string): Promise<RolloutControlOutcome> {
  const run = await db.rolloutRun.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run || !isRolloutStatus(run.status)) return { ok: false, code: "not_found", message: "no such rollout run" };
  if (!canResumeRollout(run.status)) return { ok: false, code: "conflict", message: `the run is ${run.status}; only cancelled or failed runs can be resumed` };
  const updated = await db.rolloutRun.updateMany({
    where: { id: runId, status: run.status },
    data: { status: "queued", cancelRequested: false, error: null, finishedAt: null },
  });
  if (updated.count === 0) return { ok: false, code: "conflict", message: "the run changed meanwhile; reload and try again" };
  return { ok: true, status: "queued" };
}
