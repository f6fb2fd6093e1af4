/**
 * Lifecycle of a rollout run, as of an evaluation run: queued → running → done | failed | cancelled;
 * cancelled and failed runs can be resumed (back to queued, the sessions stored so far kept), and a run
 * left `running` by a worker that died goes back to queued (server/rollout/rollout-jobs.ts).
 */
export const ROLLOUT_STATUSES = ["queued", "running", "cancelled", "done", "failed"] as const;
export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];

export function isRolloutStatus(value: string): value is RolloutStatus {
  return (ROLLOUT_STATUSES as readonly string[]).includes(value);
}

export function canResumeRollout(status: RolloutStatus): boolean {
  return status === "cancelled" || status === "failed";
}

export function canCancelRollout(status: RolloutStatus): boolean {
  return status === "queued" || status === "running";
}

export function isRolloutActive(status: string): boolean {
  return status === "queued" || status === "running";
}
