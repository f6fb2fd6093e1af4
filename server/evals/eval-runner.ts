import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { recoverOrphanedRuns } from "./recover-runs";
import { runEvaluation } from "./run-evaluation";

/**
 * The in-process evaluation runner of a Next server (or any Node process): one loop per process
 * that takes queued runs oldest first and executes them one at a time, outside any request.
 * `kickEvalRunner()` wakes it after a run is created or resumed; it is also kicked by the
 * evaluation pages and route handlers, and at server boot and then periodically by
 * startEvalRunner (instrumentation.ts). Each loop first (throttled) puts runs orphaned by a dead
 * process back in the queue, so after a restart what was running resumes without a page visit.
 */
interface RunnerState {
  workerId: string;
  active: boolean;
  again: boolean;
  lastRecovery: number;
}

const globalRunner = globalThis as unknown as { tracefoldEvalRunner?: RunnerState };
/** At most one orphan sweep per this interval (also the period of startEvalRunner's timer). */
export const RECOVERY_INTERVAL_MS = 30_000;

function state(): RunnerState {
  return (globalRunner.tracefoldEvalRunner ??= { workerId: `worker-${process.pid}-${randomUUID().slice(0, 8)}`, active: false, again: false, lastRecovery: 0 });
}

/** This process's worker id (stored on the runs it executes). */
export function runnerWorkerId(): string {
  return state().workerId;
}

/**
 * Starts the loop unless it is running (then it looks for queued runs once more before idling).
 * `recover: true` makes the next loop sweep for orphaned runs even inside the throttle interval
 * (server boot: the previous process's runs must not wait for the throttle).
 */
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

async function loop(db: Db, runner: RunnerState): Promise<void> {
  do {
    runner.again = false;
    try {
      if (Date.now() - runner.lastRecovery >= RECOVERY_INTERVAL_MS) {
        runner.lastRecovery = Date.now();
        await recoverOrphanedRuns(db, { workerId: runner.workerId });
      }
      for (let next = await nextQueued(db); next; next = await nextQueued(db)) {
        await runEvaluation(db, next, { workerId: runner.workerId });
        runner.again = true;
      }
    } catch (error) {
      console.error("evaluation runner:", error);
    }
  } while (runner.again);
}

async function nextQueued(db: Db): Promise<string | undefined> {
  const run = await db.evalRun.findFirst({ where: { status: "queued" }, orderBy: { createdAt: "asc" }, select: { id: true } });
  return run?.id;
}
