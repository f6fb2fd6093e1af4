import type { Db } from "../db/client";
import { kickEvalRunner, RECOVERY_INTERVAL_MS } from "./eval-runner";

/**
 * Starts this process's evaluation runner at server boot (instrumentation.ts `register()`):
 * one kick now, with an orphan sweep, then one kick every `intervalMs` (default 30 s).
 *
 * Why a timer and not only the boot kick: a run left `running` by the previous process only counts
 * as orphaned once its heartbeat is stale (recover-runs.ts, 2 minutes by default). A restart inside
 * those 2 minutes finds it still fresh; the periodic kick picks it up as soon as it goes stale, so
 * no page visit is needed. Each tick is cheap (one indexed query, plus the throttled sweep) and
 * the timer is unref'd, so it never keeps a process alive. Idempotent: a second call in the same
 * process (Next can evaluate instrumentation more than once in dev) returns the running timer.
 */
export interface RunnerHandle {
  stop(): void;
}

const globalBoot = globalThis as unknown as { tracefoldEvalRunnerTimer?: ReturnType<typeof setInterval> };

export function startEvalRunner(db: Db, options: { intervalMs?: number } = {}): RunnerHandle {
  const stop = () => {
    if (globalBoot.tracefoldEvalRunnerTimer) clearInterval(globalBoot.tracefoldEvalRunnerTimer);
    globalBoot.tracefoldEvalRunnerTimer = undefined;
  };
  if (globalBoot.tracefoldEvalRunnerTimer) return { stop };
  kickEvalRunner(db, { recover: true });
  const timer = setInterval(() => kickEvalRunner(db), options.intervalMs ?? RECOVERY_INTERVAL_MS);
  timer.unref();
  globalBoot.tracefoldEvalRunnerTimer = timer;
  return { stop };
}
