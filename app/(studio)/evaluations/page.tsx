import type { Metadata } from "next";
import Link from "next/link";
import { AutoRefresh } from "@/components/evaluation/auto-refresh";
import { isActive } from "@/components/evaluation/eval-types";
import { NewEvaluationForm } from "@/components/evaluation/new-evaluation-form";
import { RunsTable } from "@/components/evaluation/runs-table";
import { SuiteBuilder } from "@/components/evaluation/suite-builder";
import { formatSuiteFilterText } from "@/lib/evaluation/suites/suite-filter-text";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { kickEvalRunner } from "@/server/evaluation/eval-runner";
import { listRuns } from "@/server/evaluation/get-run";
import { listSavedFilters } from "@/server/evaluation/suites/saved-filters";
import { hasLlmEndpoint } from "@/server/llm/effective-config";
import { listPolicyInfo } from "@/server/compaction/policy-catalog";

export const metadata: Metadata = { title: "Evaluations" };
export const dynamic = "force-dynamic";

/** Evaluation runs (replay of policies at the protocol's cuts, judged) and, for reviewers, the form to start one. */
export default async function EvaluationsPage() {
  const user = await requireUser("viewer");
  const db = getDb();
  kickEvalRunner(db);
  const canStart = hasRole(user.role, "reviewer");
  const [runs, formats, sessions, savedFilters] = await Promise.all([
    listRuns(db),
    db.traceSession.findMany({ distinct: ["format"], select: { format: true }, orderBy: { format: "asc" } }),
    db.traceSession.count(),
    canStart ? listSavedFilters(db) : Promise.resolve([]),
  ]);
  const saved = savedFilters.map((f) => ({ id: f.id, name: f.name, text: formatSuiteFilterText(f.filter) }));
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
        {canStart && sessions > 0 ? <SuiteBuilder formats={formats.map((f) => f.format)} saved={saved} /> : null}
        {canStart && sessions > 0 ? (
          <NewEvaluationForm
            policies={listPolicyInfo()}
            formats={formats.map((f) => f.format)}
            savedFilters={saved}
            llmAvailable={await hasLlmEndpoint(undefined, undefined, "judge")}
          />
        ) : null}
      </div>
    </>
  );
}
