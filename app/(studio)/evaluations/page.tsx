import type { Metadata } from "next";
import Link from "next/link";
import { AutoRefresh } from "@/components/evaluations/auto-refresh";
import { isActive } from "@/components/evaluations/eval-types";
import { NewEvaluationForm } from "@/components/evaluations/new-evaluation-form";
import { RunsTable } from "@/components/evaluations/runs-table";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { kickEvalRunner } from "@/server/evals/eval-runner";
import { listRuns } from "@/server/evals/get-run";
import { llmClientFromEnv } from "@/server/llm/client";
import { listPolicyInfo } from "@/server/policies/policy-catalog";

export const metadata: Metadata = { title: "Evaluations" };
export const dynamic = "force-dynamic";

/** Evaluation runs (replay of policies at the protocol's cuts, judged) and, for reviewers, the form to start one. */
export default async function EvaluationsPage() {
  const user = await requireUser("viewer");
  const db = getDb();
  kickEvalRunner(db);
  const canStart = hasRole(user.role, "reviewer");
  const [runs, formats, sessions] = await Promise.all([
    listRuns(db),
    db.traceSession.findMany({ distinct: ["format"], select: { format: true }, orderBy: { format: "asc" } }),
    db.traceSession.count(),
  ]);
  return (
    <>
      <div className="page-header">
        <h1>Evaluations</h1>
        <p>Replay policies at the protocol&apos;s cut points and judge what the real future still finds.</p>
      </div>
      <AutoRefresh active={runs.some((r) => isActive(r.status))} />
      <div className="stack">
        {runs.length === 0 ? (
          <div className="card empty">
            <h2>No evaluations yet</h2>
            <p>{canStart ? "Start one below." : "Ask a reviewer or admin to start one."}</p>
          </div>
        ) : (
          <RunsTable runs={runs} />
        )}
        {canStart && sessions === 0 ? (
          <div className="card empty">
            <p>
              There are no sessions to evaluate. <Link href="/upload">Upload traces</Link> first.
            </p>
          </div>
        ) : null}
        {canStart && sessions > 0 ? (
          <NewEvaluationForm policies={listPolicyInfo().map((p) => ({ id: p.id, family: p.family }))} formats={formats.map((f) => f.format)} llmAvailable={llmClientFromEnv() !== undefined} />
        ) : null}
      </div>
    </>
  );
}
