"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { cancelRolloutAction, resumeRolloutAction } from "@/app/_actions/rollout";
import type { RolloutRunSummary } from "@/server/rollout/get-rollout";
import { RolloutProgress, RolloutStatusPill } from "./rollout-progress";

/** Status, sessions done of total, and (for reviewers) cancel / resume; the page refreshes itself while the run is active. */
export function RolloutControls({ run, canControl }: { run: RolloutRunSummary; canControl: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const act = (action: typeof cancelRolloutAction) =>
    startTransition(async () => {
      const result = await action(run.id);
      setError(result.ok ? null : result.message);
      router.refresh();
    });
  return (
    <section className="card card-body stack" aria-label="Rollout progress">
      <div className="row" style={{ gap: 12, alignItems: "center", flexWrap: "wrap" }}>
        <RolloutStatusPill status={run.status} />
        <RolloutProgress run={run} />
        {run.cancelRequested && run.status === "running" ? <span className="faint">stopping after the current session…</span> : null}
        {canControl && (run.status === "queued" || (run.status === "running" && !run.cancelRequested)) ? (
          <button type="button" className="btn btn-sm" disabled={pending} onClick={() => act(cancelRolloutAction)}>
            Cancel
          </button>
        ) : null}
        {canControl && (run.status === "cancelled" || run.status === "failed") ? (
          <button type="button" className="btn btn-sm btn-primary" disabled={pending} onClick={() => act(resumeRolloutAction)}>
            Resume
          </button>
        ) : null}
      </div>
      {run.error ? (
        <div className="alert alert-error" role="alert">
          The rollout failed: {run.error}
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
