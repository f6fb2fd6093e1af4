import type { RegisterJobs } from "../jobs/job-feature";
import { startEvalRunner } from "./start-eval-runner";

/**
 * The evaluation's jobs: evaluation runs (`eval-run`), `concurrency` at once. The runner keeps its
 * own sweep timer (start-eval-runner.ts says why), so it adds none to the worker's.
 */
export function evaluationJobs(concurrency: number): RegisterJobs {
  return async ({ db, queue, staleMs, sweepMs }) => {
    const runner = startEvalRunner(db, { queue, staleMs, intervalMs: sweepMs, concurrency });
    return { name: "evaluation runs", stop: () => runner.stop() };
  };
}
