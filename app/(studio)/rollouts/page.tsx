import type { Metadata } from "next";
import Link from "next/link";
import { AutoRefresh } from "@/components/evaluation/auto-refresh";
import { NewRolloutForm } from "@/components/rollout/new-rollout-form";
import { RolloutRunsTable } from "@/components/rollout/rollout-runs-table";
import { POLICIES } from "@/lib/compaction/policies/registry";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { hasLlmEndpoint } from "@/server/llm/effective-config";
import { listRollouts } from "@/server/rollout/get-rollout";
import { DEFAULT_ROLLOUT_POLICIES } from "@/server/rollout/rollout-settings";
import { isRolloutActive } from "@/server/rollout/rollout-status";

export const metadata: Metadata = { title: "Rollouts" };
export const dynamic = "force-dynamic";

/** Rollout runs (every policy through whole sessions, each commit judged) and, for reviewers, the form to start one. */
export default async function RolloutsPage() {
  const user = await requireUser("viewer");
  const db = getDb();
  const canStart = hasRole(user.role, "reviewer");
  const [runs, totalSessions, sessions, plannerAvailable] = await Promise.all([
    listRollouts(db),
    db.traceSession.count(),
    canStart ? db.traceSession.findMany({ select: { id: true, title: true, format: true }, orderBy: { createdAt: "desc" }, take: 500 }) : Promise.resolve([]),
    canStart ? hasLlmEndpoint(db, undefined, "planner") : Promise.resolve(false),
  ]);
  return (
    <>
      <div className="page-header">
        <h1>Rollouts</h1>
        <p>Run policies through whole sessions as a harness would: prompt tokens and cost after caching, restores, lost steps, drift.</p>
      </div>
      <AutoRefresh active={runs.some((r) => isRolloutActive(r.status))} />
      <div className="stack">
        {runs.length === 0 ? (
          <div className="card empty" data-testid="rollouts-empty">
            <h2>No rollouts yet</h2>
            <p>{canStart ? "Start one below." : "Ask a reviewer or admin to start one."}</p>
          </div>
        ) : (
          <RolloutRunsTable runs={runs} />
        )}
        {canStart && totalSessions === 0 ? (
          <div className="card empty">
            <p>
              There are no sessions to roll out. <Link href="/upload">Upload traces</Link> first.
            </p>
          </div>
        ) : null}
        {canStart && totalSessions > 0 ? (
          <NewRolloutForm
            policies={POLICIES.map((p) => p.id)}
            defaultPolicies={DEFAULT_ROLLOUT_POLICIES}
            sessions={sessions}
            totalSessions={totalSessions}
            plannerAvailable={plannerAvailable}
          />
        ) : null}
      </div>
    </>
  );
}
