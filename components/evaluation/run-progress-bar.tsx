import type { EvalRunSummary } from "./eval-types";

/** A run's progress: units stored of the total, with failed units named. */
export function RunProgressBar({ run }: { run: Pick<EvalRunSummary, "id" | "done" | "total" | "failed" | "status"> }) {
  const share = run.total > 0 ? Math.min(1, run.done / run.total) : 0;
  return (
    <div className="row" style={{ gap: 8, alignItems: "center" }}>
      <progress className="progress" max={1} value={share} aria-label={`Progress of run ${run.id}`} data-testid="run-progress" />
      <span className="num faint" data-testid="run-progress-text">
        {run.done.toLocaleString("en-US")} / {run.total.toLocaleString("en-US")}
        {run.failed > 0 ? ` · ${run.failed} failed` : ""}
      </span>
    </div>
  );
}

export function RunStatusPill({ status }: { status: string }) {
  const tone = status === "done" ? "status-imported" : status === "failed" ? "status-failed" : status === "cancelled" ? "status-duplicate" : "";
  return (
    <span className={`status ${tone}`} data-testid="run-status">
      {status}
    </span>
  );
}
