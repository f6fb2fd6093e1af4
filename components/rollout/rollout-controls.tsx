"use client";

import { useRouter } from "next/navigation";
import { cancelRolloutAction, resumeRolloutAction } from "@/app/_actions/rollout";
import { RunControlsCard } from "@/components/ui/run-controls-card";
import type { RolloutRunSummary } from "@/server/rollout/get-rollout";
import { RolloutProgress, RolloutStatusPill } from "./rollout-progress";

/** Status, sessions done of total, and (for reviewers) cancel / resume; the page refreshes itself while the run is active. */
export function RolloutControls({ run, canControl }: { run: RolloutRunSummary; canControl: boolean }) {
  const router = useRouter();
  return (
    <RunControlsCard
      label="Rollout progress"
      run={run}
      canControl={canControl}
      status={<RolloutStatusPill status={run.status} />}
      progress={<RolloutProgress run={run} />}
      stopping="stopping after the current session…"
      failedLabel="The rollout failed"
      cancel={() => cancelRolloutAction(run.id)}
      resume={() => resumeRolloutAction(run.id)}
      onChanged={() => router.refresh()}
    />
  );
}
