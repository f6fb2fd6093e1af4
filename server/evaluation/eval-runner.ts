import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { getJobQueue } from "../jobs/process-queue";
import { enqueueEvalRun, reconcileEvalRuns } from "./eval-jobs";

/**
 * The studio's side of evaluation runs: `kickEvalRunner()` after a run is created or resumed (and
 * from the evaluation pages and route handlers) makes sure every queued run has its job in this
 * process's JobQueue (server/jobs/process-queue.ts), and at most every RECOVERY_INTERVAL_MS also
 * puts runs of dead workers back in the queue. The runs themselves execute in whichever process
 * works the `eval-run` queue: `npm run worker`, or this server when it runs jobs in-process
 * (start-eval-runner.ts via instrumentation.ts).
 */
interface KickState {
  workerId: string;
  active: boolean;
  again: boolean;
  lastRecovery: number;
}

const globalRunner = globalThis as unknown as { tracefoldEvalRunner?: KickState };
/** At most one orphan sweep per this interval from kicks (also the period of startEvalRunner's timer). */
export const RECOVERY_INTERVAL_MS = 30_000;

function state(): KickState {
  return (globalRunner.tracefoldEvalRunner ??= { workerId: `worker-${process.pid}-${randomUUID().slice(0, 8)}`, active: false, again: false, lastRecovery: 0 });
}

/** This process's worker id (stored on the runs it executes). */
export function runnerWorkerId(): string {
  return state().workerId;
}

/** Queues the jobs of queued runs now (coalesced: one pass at a time, one more if kicked meanwhile). */
export function kickEvalRunner(db: Db, options: { recover?: boolean } = {}): void {
  const runner = state();
  if (options.recover) runner.lastRecovery = 0;
  if (runner.active) {
    runner.again = true;
    return;
  }
  runner.active = true;
  void loop(db, runner).finally(() => {
    runner.active = false;
  });
}

async function loop(db: Db, runner: KickState): Promise<void> {
  do {
    runner.again = false;
    try {
      const recover = Date.now() - runner.lastRecovery >= RECOVERY_INTERVAL_MS;
      if (recover) runner.lastRecovery = Date.now();
      const queue = getJobQueue();
      if (recover) await reconcileEvalRuns(db, queue, { workerId: runner.workerId });
      else for (const { id } of await db.evalRun.findMany({ where: { status: "queued" }, select: { id: true } })) await enqueueEvalRun(queue, id);
    } catch (error) {
      console.error("evaluation runs:", error);
    }
  } while (runner.again);
}
