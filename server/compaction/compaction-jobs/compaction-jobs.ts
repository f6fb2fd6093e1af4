import type { BlobStore } from "../../storage/blob-store";
import type { RegisterJobs } from "../../jobs/job-feature";
import { compactionJobHandler, reconcileCompactionJobs } from "./run-compaction-job";

/** The compaction's jobs: studio compactions that call the LLM (`session-compact`), `concurrency` at once. */
export function compactionJobs(store: BlobStore, concurrency: number): RegisterJobs {
  return async ({ db, queue, workerId, staleMs, llm }) => {
    await queue.work("session-compact", compactionJobHandler(db, store, { workerId, staleMs, ...(llm ? { llm } : {}) }), { concurrency });
    return {
      name: "compaction jobs",
      sweep: async () => {
        await reconcileCompactionJobs(db, queue, { workerId, staleMs });
      },
    };
  };
}
