import { plural } from "@/lib/util/plural";
import type { RolloutRunSummary } from "@/server/rollout/get-rollout";

/** A run's progress: sessions rolled out (every policy) of the sessions chosen. */
export function RolloutProgress({ run }: { run: Pick<RolloutRunSummary, "id" | "done" | "total"> }) {
  const share = run.total > 0 ? Math.min(1, run.done / run.total) : 0;
  return (
    <div className="row" style={{ gap: 8, alignItems: "center" }}>
      <progress className="progress" max={1} value={share} aria-label={`Progress of rollout ${run.id}`} />
      <span className="num faint" data-testid="rollout-progress-text">
        {run.done.toLocaleString("en-US")} / {plural(run.total, "session")}
      </span>
    </div>
  );
}

export function RolloutStatusPill({ status }: { status: string }) {
  const tone = status === "done" ? "status-imported" : status === "failed" ? "status-failed" : status === "cancelled" ? "status-duplicate" : "";
  return (
    <span className={`status ${tone}`} data-testid="rollout-status">
      {status}
    </span>
  );
}
