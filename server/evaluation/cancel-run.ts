import type { Db } from "../db/client";
import { signalCancel } from "./cancel-signals";
import { canCancel, isEvalRunStatus, type EvalRunStatus } from "./run-status";

export type RunControlOutcome = { ok: true; status: EvalRunStatus } | { ok: false; code: "not_found" | "conflict"; message: string };

/**
 * Cancels a run. A queued run stops at once; a running one gets its cancel flag (and this
 * process's signal): the runner stops at once, aborting its model calls in flight, and keeps every
 * result stored so far — resume picks up from there, redoing the units cut short. The status
 * changes to `cancelled` when the runner stops.
 */
export async function cancelRun(db: Db, runId: string): Promise<RunControlOutcome> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run || !isEvalRunStatus(run.status)) return { ok: false, code: "not_found", message: "no such evaluation run" };
  if (!canCancel(run.status)) return { ok: false, code: "conflict", message: `the run is ${run.status}; only queued or running runs can be cancelled` };
  const queued = await db.evalRun.updateMany({ where: { id: runId, status: "queued" }, data: { status: "cancelled", finishedAt: new Date() } });
  if (queued.count === 1) return { ok: true, status: "cancelled" };
  await db.evalRun.updateMany({ where: { id: runId, status: "running" }, data: { cancelRequested: true } });
  signalCancel(runId);
  return { ok: true, status: "running" };
}
