import type { RegisterJobs } from "../jobs/job-feature";
import { reconcileRolloutRuns, rolloutRunHandler } from "./rollout-jobs";

/** The rollout's jobs: rollout runs (`rollout-run`), `concurrency` at once, and the sweep that requeues orphaned ones. */
export function rolloutRunJobs(concurrency: number): RegisterJobs {
  return async ({ db, queue, workerId, staleMs }) => {
    await queue.work("rollout-run", rolloutRunHandler(db, queue, { workerId, staleMs }), { concurrency });
    return {
      name: "rollout runs",
      sweep: async () => {
        await reconcileRolloutRuns(db, queue, { workerId, staleMs });
      },
    };
  };
}
