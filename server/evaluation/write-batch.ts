import type { Db } from "../db/client";
import type { ResultRow } from "./result-rows";

/** Progress kept by the runner: stored units, stored failures, and the unit total once known. */
export interface BatchProgress {
  done: number;
  failed: number;
  total: number | undefined;
}

/**
 * Writes a batch of results and the run's progress in one transaction, so the progress bar never
 * counts a unit that is not stored (and a crash between batches loses at most one batch, which
 * resume redoes). Returns whether the run's cancel flag is set: checked at every batch so a cancel
 * from another server process is seen too.
 */
export async function writeBatch(db: Db, runId: string, rows: ResultRow[], progress: BatchProgress): Promise<boolean> {
  const failed = rows.filter((r) => r.error !== null).length;
  const [, run] = await db.$transaction([
    db.evalResult.createMany({ data: rows.map((row) => ({ ...row, runId })) }),
    db.evalRun.update({
      where: { id: runId },
      data: {
        done: progress.done + rows.length,
        failed: progress.failed + failed,
        heartbeatAt: new Date(),
        ...(progress.total !== undefined ? { total: progress.total } : {}),
      },
      select: { cancelRequested: true },
    }),
  ]);
  progress.done += rows.length;
  progress.failed += failed;
  return run.cancelRequested;
}
