import { z } from "zod";
import type { Db } from "../db/client";
import { runRollout, type RunRolloutOptions } from "./run-rollout";

/**
 * Rollout runs as durable jobs, like evaluation runs (server/evaluation/eval-jobs.ts): the RolloutRun row
 * is the truth (status, progress, cancel flag, the sessions stored so far, which resume skips); a
 * `rollout-run` job only says "execute this run now", so a lost, doubled or retried job is harmless —
 * runRollout claims the run atomically and a second job finds nothing to do.
 */
export const RolloutRunJobSchema = z.object({ runId: z.string().min(1, "runId is required") });

/**
 * The part of server/jobs' JobQueue this folder uses, named here so server/rollout does not import
 * server/jobs (which imports this folder to register the handler): any JobQueue fits.
 */
export interface RolloutQueue {
  enqueue(name: "rollout-run", payload: { runId: string }, options?: { singletonKey?: string }): Promise<string | null>;
}

/** The `rollout-run` job handler's shape (server/jobs' JobHandler). */
export type RolloutJobHandler = (job: { data: object; signal: AbortSignal }) => Promise<void>;

/** A running run whose heartbeat is older than this belongs to a worker that died (TRACEFOLD_RUN_STALE_MS applies too). */
export const DEFAULT_ROLLOUT_STALE_MS = 120_000;

/** Queues the job of a queued run (one waiting job per run, however often it is called). */
export async function enqueueRolloutRun(queue: RolloutQueue, runId: string): Promise<void> {
  await queue.enqueue("rollout-run", { runId }, { singletonKey: runId });
}

/** The `rollout-run` handler: executes the run; a graceful stop hands it back and queues it again. */
export function rolloutRunHandler(db: Db, queue: RolloutQueue, options: Pick<RunRolloutOptions, "workerId" | "staleMs">): RolloutJobHandler {
  return async (job) => {
    const { runId } = RolloutRunJobSchema.parse(job.data);
    const status = await runRollout(db, runId, { ...options, signal: job.signal });
    if (status === "queued") await enqueueRolloutRun(queue, runId).catch((error) => console.error("re-queueing released rollout", runId, error));
  };
}

/**
 * One sweep: runs whose worker's heartbeat is older than `staleMs` (or held by no worker) go back to
 * `queued`, and every queued run gets its job (a studio that died between creating a run and queueing
 * it, a job lost with its worker). The conditional update makes two sweeping processes agree.
 * Returns the ids taken back.
 */
export async function reconcileRolloutRuns(db: Db, queue: RolloutQueue, options: { workerId: string; staleMs?: number; now?: Date }): Promise<string[]> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - (options.staleMs ?? DEFAULT_ROLLOUT_STALE_MS));
  const where = {
    status: "running",
    OR: [{ workerId: null }, { workerId: { not: options.workerId }, OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: cutoff } }] }],
  };
  const recovered: string[] = [];
  for (const { id } of await db.rolloutRun.findMany({ where, select: { id: true } })) {
    const updated = await db.rolloutRun.updateMany({ where: { id, ...where }, data: { status: "queued", workerId: null } });
    if (updated.count === 1) recovered.push(id);
  }
  for (const { id } of await db.rolloutRun.findMany({ where: { status: "queued" }, orderBy: { createdAt: "asc" }, select: { id: true } }))
    await enqueueRolloutRun(queue, id);
  return recovered;
}
