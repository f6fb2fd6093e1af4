"use client";

import { useState, useTransition } from "react";
import { cancelEvaluationAction, resumeEvaluationAction } from "@/app/_actions/evaluation";
import type { EvalRunSummary } from "./eval-types";
import { RunProgressBar, RunStatusPill } from "./run-progress-bar";

/** Status, progress, (for reviewers) cancel / resume, and the reproduction package of a finished run. */
export function RunControls({ run, canControl, onChanged }: { run: EvalRunSummary; canControl: boolean; onChanged: () => Promise<void> }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const act = (action: typeof cancelEvaluationAction) =>
    startTransition(async () => {
      const result = await action(run.id);
      setError(result.ok ? null : result.message);
      await onChanged();
    });
  const cancellable = run.status === "queued" || (run.status === "running" && !run.cancelRequested);
  return (
    <section className="card card-body stack" aria-label="Run progress">
      <div className="row" style={{ gap: 12, alignItems: "center", flexWrap: "wrap" }}>
        <RunStatusPill status={run.status} />
        <RunProgressBar run={run} />
        {run.cancelRequested && run.status === "running" ? <span className="faint">stopping after the current unit…</span> : null}
        {canControl && cancellable ? (
          <button type="button" className="btn btn-sm" disabled={pending} onClick={() => act(cancelEvaluationAction)}>
            Cancel
          </button>
        ) : null}
        {canControl && (run.status === "cancelled" || run.status === "failed") ? (
          <button type="button" className="btn btn-sm btn-primary" disabled={pending} onClick={() => act(resumeEvaluationAction)}>
            Resume
          </button>
        ) : null}
        {run.status === "done" ? (
          <a className="btn btn-sm" href={`/api/evaluations/${encodeURIComponent(run.id)}/export`} download>
            Download reproduction package
          </a>
        ) : null}
      </div>
      {run.error ? (
        <div className="alert alert-error" role="alert">
          The run failed: {run.error}
        </div>
      ) : null}
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
