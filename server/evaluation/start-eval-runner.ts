import type { Db } from "../db/client";
import type { JobQueue } from "../jobs/job-queue";
import { createTableQueue } from "../jobs/sqlite-queue";
import type { LlmClient } from "@/lib/llm/types";
import { evalRunHandler, reconcileEvalRuns } from "./eval-jobs";
import { RECOVERY_INTERVAL_MS, runnerWorkerId } from "./eval-runner";

/**
 * Makes this process execute evaluation runs: registers the `eval-run` job handler on `queue`
 * (default: a `Job`-table queue over `db`, started and stopped here) and sweeps every `intervalMs`
 * (default 30 s) — runs whose worker's heartbeat went stale back to the queue, every queued run
 * given its job (server/evaluation/eval-jobs.ts). Called by `npm run worker` and, when the studio runs
 * jobs itself, by instrumentation.ts at server boot.
 *
 * Why a timer and not only the boot sweep: a run left `running` by the previous process only counts
 * as orphaned once its heartbeat is stale (recover-runs.ts, 2 minutes by default). A restart inside
 * those 2 minutes finds it still fresh; the periodic sweep picks it up as soon as it goes stale.
 * The timer is unref'd, so it never keeps a process alive. Idempotent per process: a second call
 * (Next can evaluate instrumentation more than once in dev) returns a handle to the running one.
 */
export interface RunnerHandle {
  stop(): Promise<void>;
}

export interface StartEvalRunnerOptions {
  intervalMs?: number;
  queue?: JobQueue;
  /** Runs executed at once by this process (default 1). */
  concurrency?: number;
  staleMs?: number;
  llm?: LlmClient | null;
}

const globalBoot = globalThis as unknown as { tracefoldEvalRunnerTimer?: ReturnType<typeof setInterval> };

export function startEvalRunner(db: Db, options: StartEvalRunnerOptions = {}): RunnerHandle {
  if (globalBoot.tracefoldEvalRunnerTimer) return { stop: async () => clearTimer() };
  const intervalMs = options.intervalMs ?? RECOVERY_INTERVAL_MS;
  const queue = options.queue ?? createTableQueue(db, { pollMs: Math.min(intervalMs, 500) });
  const workerId = runnerWorkerId();
  const sweep = () =>
    reconcileEvalRuns(db, queue, { workerId, ...(options.staleMs ? { staleMs: options.staleMs } : {}) }).then(
      () => undefined,
      (error) => console.error("evaluation runs sweep:", error),
    );
  const ready = (async () => {
    await queue.start();
    await queue.work("eval-run", evalRunHandler(db, queue, { workerId, ...(options.llm !== undefined ? { llm: options.llm } : {}) }), {
      concurrency: options.concurrency ?? 1,
    });
    await sweep();
  })().catch((error) => console.error("evaluation runner:", error));
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  globalBoot.tracefoldEvalRunnerTimer = timer;
  return {
    stop: async () => {
      clearTimer();
      await ready;
      if (!options.queue) await queue.stop().catch(() => undefined);
    },
  };
}

function clearTimer(): void {
  if (globalBoot.tracefoldEvalRunnerTimer) clearInterval(globalBoot.tracefoldEvalRunnerTimer);
  globalBoot.tracefoldEvalRunnerTimer = undefined;
}
