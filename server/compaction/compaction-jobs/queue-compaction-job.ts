import type { Db } from "../../db/client";
import type { JobQueue } from "../../jobs/job-queue";
import type { CompactRequest } from "../compaction-api";

/**
 * Stores a compaction that calls the LLM as a CompactionJob row (queued) and queues the
 * `session-compact` job that carries its id; the row, not the job, is the truth (see
 * run-compaction-job.ts). Returns the row's id, which the page polls.
 */
export async function queueCompactionJob(
  db: Db,
  queue: JobQueue,
  input: { sessionId: string; request: CompactRequest; userId?: string | undefined },
): Promise<string> {
  const { policy, cut, window, params } = input.request;
  const row = await db.compactionJob.create({
    data: {
      sessionId: input.sessionId,
      policy,
      cut: cut ?? null,
      window: window ?? null,
      params: JSON.stringify(params ?? {}),
      requestedById: input.userId ?? null,
    },
    select: { id: true },
  });
  await enqueueCompactionJob(queue, row.id);
  return row.id;
}

/** One waiting job per compaction, however often it is called (the sweep calls it for every queued row). */
export async function enqueueCompactionJob(queue: JobQueue, jobId: string): Promise<void> {
  await queue.enqueue("session-compact", { jobId }, { singletonKey: jobId });
}
