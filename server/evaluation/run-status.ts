/**
 * Lifecycle of an evaluation run: queued → running → done | failed | cancelled; cancelled and
 * failed runs can be resumed (back to queued), and a run left `running` by a process that died is
 * put back to queued by the runner. Stored as text in `EvalRun.status`.
 */
export const EVAL_RUN_STATUSES = ["queued", "running", "cancelled", "done", "failed"] as const;
export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];

export function isEvalRunStatus(value: string): value is EvalRunStatus {
  return (EVAL_RUN_STATUSES as readonly string[]).includes(value);
}

/** Runs a person can resume: stopped before every unit was stored. */
export function canResume(status: EvalRunStatus): boolean {
  return status === "cancelled" || status === "failed";
}

/** Runs a person can cancel: not finished yet. */
export function canCancel(status: EvalRunStatus): boolean {
  return status === "queued" || status === "running";
}
