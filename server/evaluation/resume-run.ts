import type { Db } from "../db/client";
import type { RunControlOutcome } from "./cancel-run";
import { clearCancelSignal } from "./cancel-signals";
import { canResume, isEvalRunStatus } from "./run-status";

/**
 * Puts a cancelled or failed run back in the queue. Its stored results stay: the runner skips
 * every stored unit key, so the finished run holds each unit once and its aggregates equal those
 * of an uninterrupted run. The caller kicks the runner.
 */
export async function resumeRun(db: Db, runId: string): Promise<RunControlOutcome> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run || !isEvalRunStatus(run.status)) return { ok: false, code: "not_found", message: "no such evaluation run" };
  if (!canResume(run.status)) return { ok: false, code: "conflict", message: `the run is ${run.status}; only cancelled or failed runs can be resumed` };
  const updated = await db.evalRun.updateMany({
    where: { id: runId, status: run.status },
    data: { status: "queued", cancelRequested: false, error: null, finishedAt: null },
  });
  if (updated.count === 0) return { ok: false, code: "conflict", message: "the run changed meanwhile; reload and try again" };
  clearCancelSignal(runId);
  return { ok: true, status: "queued" };
}
