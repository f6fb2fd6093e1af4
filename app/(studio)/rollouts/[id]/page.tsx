import { plural } from "@/lib/util/plural";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/evaluation/auto-refresh";
import { RolloutCallsChart } from "@/components/rollout/rollout-calls-chart";
import { RolloutControls } from "@/components/rollout/rollout-controls";
import { RolloutDriftChart } from "@/components/rollout/rollout-drift-chart";
import { RolloutFrontierChart } from "@/components/rollout/rollout-frontier-chart";
import { RolloutPlannerTable } from "@/components/rollout/rollout-planner-table";
import { RolloutSessionsTable } from "@/components/rollout/rollout-sessions-table";
import { RolloutSummaryTable } from "@/components/rollout/rollout-summary-table";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { getRollout } from "@/server/rollout/get-rollout";
import { isRolloutActive } from "@/server/rollout/rollout-status";

export const dynamic = "force-dynamic";

interface RolloutPageProps {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: RolloutPageProps): Promise<Metadata> {
  await requireUser("viewer");
  const run = await getDb().rolloutRun.findUnique({ where: { id: (await params).id }, select: { name: true } });
  return { title: run ? `Rollout · ${run.name}` : "Rollout" };
}

/**
 * One rollout run: progress (with cancel / resume for reviewers) while it runs; once done, the per
 * policy summary, the cost/quality frontier, drift, input tokens per call of a chosen session, and
 * the per-session table whose links open a session at the call where a dependency was lost.
 */
export default async function RolloutPage({ params }: RolloutPageProps) {
  const user = await requireUser("viewer");
  const view = await getRollout(getDb(), (await params).id);
  if (!view) notFound();
  const { run, report, sessions } = view;
  const settings = run.settings;
  return (
    <>
      <div className="page-header">
        <h1>{run.name}</h1>
        <p>
          <Link href="/rollouts">Rollouts</Link> · {plural(run.total, "session")} · {plural(run.policies.length, "policy", "policies")}
        </p>
        {settings ? (
          <p className="faint mono" data-testid="rollout-settings">
            --policies {settings.policies.join(",")} --trigger {settings.trigger} --cache-ttl {settings.cacheTtl}
            {settings.window !== undefined ? ` --window ${settings.window}` : " (window per session)"}
            {settings.prices ? ` --prices ${settings.prices}` : " (each session at its model's list price)"}
            {settings.planner === "llm" ? " --planner llm" : ""}
            {settings.hardLimit ? " --hard-limit" : ""}
          </p>
        ) : null}
      </div>
      <AutoRefresh active={isRolloutActive(run.status)} />
      <div className="stack">
        <RolloutControls run={run} canControl={hasRole(user.role, "reviewer")} />
        {report ? (
          <>
            <section className="stack" aria-labelledby="rollout-summary-heading">
              <h2 id="rollout-summary-heading">Per policy</h2>
              <RolloutSummaryTable policies={report.policies} hardLimit={report.hardLimit} />
            </section>
            {settings?.planner === "llm" || report.policies.some((p) => p.planner.rounds > 0) ? (
              <section className="stack" aria-labelledby="rollout-planner-heading">
                <h2 id="rollout-planner-heading">LLM planner</h2>
                <RolloutPlannerTable policies={report.policies} />
              </section>
            ) : null}
            <div className="grid-2">
              <section className="card card-body" aria-labelledby="rollout-frontier-heading">
                <h2 id="rollout-frontier-heading">Cost and quality</h2>
                <RolloutFrontierChart policies={report.policies} />
              </section>
              <section className="card card-body" aria-labelledby="rollout-drift-heading">
                <h2 id="rollout-drift-heading">Drift</h2>
                <RolloutDriftChart policies={report.policies} />
              </section>
            </div>
            <section className="card card-body" aria-labelledby="rollout-calls-heading">
              <h2 id="rollout-calls-heading">Input tokens per call</h2>
              <RolloutCallsChart sessions={sessions} />
            </section>
          </>
        ) : (
          <p className="faint">
            {isRolloutActive(run.status)
              ? "The figures appear when every session is rolled out."
              : `The run stopped before every session was rolled out (${run.done} of ${run.total}); resume it for the figures.`}
          </p>
        )}
        {sessions.length > 0 ? (
          <section className="stack" aria-labelledby="rollout-sessions-heading">
            <h2 id="rollout-sessions-heading">Per session</h2>
            <RolloutSessionsTable runId={run.id} sessions={sessions} policies={run.policies} />
          </section>
        ) : null}
      </div>
    </>
  );
}
