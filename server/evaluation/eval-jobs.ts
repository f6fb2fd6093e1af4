import { z } from "zod";
import type { Db } from "../db/client";
import type { JobHandler, JobQueue } from "../jobs/job-queue";
import { DEFAULT_STALE_MS, recoverOrphanedRuns } from "./recover-runs";
import { runEvaluation, type RunEvaluationOptions } from "./run-evaluation";
import { processEnv } from "@/server/env";

/**
 * Evaluation runs as durable jobs. The run row stays the source of truth (status, progress,
 * cancel, the stored results that resume skips); a job only carries the run id and says "execute
 * this run now". So a job can be lost, doubled or retried without harm: runEvaluation claims the
 * run atomically (queued → running) and a second job for it finds nothing to do, and the sweep
 * below re-creates the job of any queued run and re-queues the run of a worker that died.
 */
export const EvalRunJobSchema = z.object({ runId: z.string().min(1, "runId is required") });

/** Queues the job of a queued run (one waiting job per run, however often it is called). */
export async function enqueueEvalRun(queue: JobQueue, runId: string): Promise<void> {
  await queue.enqueue("eval-run", { runId }, { singletonKey: runId });
}

/** The `eval-run` handler: executes the run; a graceful stop hands it back and queues it again. */
export function evalRunHandler(db: Db, queue: JobQueue, options: Pick<RunEvaluationOptions, "workerId" | "llm">): JobHandler<object> {
  return async (job) => {
    const { runId } = EvalRunJobSchema.parse(job.data);
    const status = await runEvaluation(db, runId, { ...options, signal: job.signal });
    if (status === "queued") await enqueueEvalRun(queue, runId).catch((error) => console.error("re-queueing released run", runId, error));
  };
}

/**
 * One sweep: runs whose worker's heartbeat is older than `staleMs` go back to the queue, and every
 * queued run gets its job (runs created before jobs existed, a studio that crashed between creating
 * a run and queueing it, a run released by a worker that stopped). Returns the re-queued run ids.
 */
export async function reconcileEvalRuns(db: Db, queue: JobQueue, options: { workerId: string; staleMs?: number }): Promise<string[]> {
  const recovered = await recoverOrphanedRuns(db, { workerId: options.workerId, staleMs: options.staleMs ?? staleMsFromEnv() });
  const queued = await db.evalRun.findMany({ where: { status: "queued" }, orderBy: { createdAt: "asc" }, select: { id: true } });
  for (const { id } of queued) await enqueueEvalRun(queue, id);
  return recovered;
}

/** TRACEFOLD_RUN_STALE_MS: how long a silent worker keeps its run (default 2 minutes). */
export function staleMsFromEnv(): number {
  const value = Number(processEnv().TRACEFOLD_RUN_STALE_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_STALE_MS;
}
