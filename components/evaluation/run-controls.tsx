"use client";

import { cancelEvaluationAction, resumeEvaluationAction } from "@/app/_actions/evaluation";
import { RunControlsCard } from "@/components/ui/run-controls-card";
import type { EvalRunSummary } from "./eval-types";
import { RunProgressBar, RunStatusPill } from "./run-progress-bar";

/** Status, progress, (for reviewers) cancel / resume, and the reproduction package of a finished run. */
export function RunControls({ run, canControl, onChanged }: { run: EvalRunSummary; canControl: boolean; onChanged: () => Promise<void> }) {
  return (
    <RunControlsCard
      label="Run progress"
      run={run}
      canControl={canControl}
      status={<RunStatusPill status={run.status} />}
      progress={<RunProgressBar run={run} />}
      stopping="stopping after the current unit…"
      failedLabel="The run failed"
      cancel={() => cancelEvaluationAction(run.id)}
      resume={() => resumeEvaluationAction(run.id)}
      onChanged={onChanged}
    >
      {run.status === "done" ? (
        <a className="btn btn-sm" href={`/api/evaluations/${encodeURIComponent(run.id)}/export`} download>
          Download reproduction package
        </a>
      ) : null}
    </RunControlsCard>
  );
}
