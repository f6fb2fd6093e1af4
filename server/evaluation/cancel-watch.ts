import type { Db } from "../db/client";

/**
 * Watches a running run's cancel flag in the database every `intervalMs` and calls `onCancel` once
 * it is set. A cancel made in another process (the studio, while a `npm run worker` executes the
 * run) has only the flag to travel by, and the runner otherwise reads it at batch writes — which
 * never come while every unit waits on a slow model call. The timer is unref'd (it never keeps the
 * process alive) and a read that fails is retried at the next tick. Returns the stop function.
 */
export function watchCancelFlag(db: Db, runId: string, intervalMs: number, onCancel: () => void): () => void {
  let reading = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (reading || stopped) return;
    reading = true;
    db.evalRun
      .findUnique({ where: { id: runId }, select: { cancelRequested: true } })
      .then((run) => {
        if (run?.cancelRequested && !stopped) onCancel();
      })
      .catch(() => {})
      .finally(() => {
        reading = false;
      });
  }, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
