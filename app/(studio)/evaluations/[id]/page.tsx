import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EvaluationView } from "@/components/evaluation/evaluation-view";
import { HumanLabels } from "@/components/evaluation/human-labels";
import { suiteLabel } from "@/components/evaluation/runs-table";
import { formatCutLevels } from "@/lib/evaluation/cuts/cut-levels";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { kickEvalRunner } from "@/server/evaluation/eval-runner";
import { getRunView } from "@/server/evaluation/run-view";
import { getRunHumanLabels } from "@/server/review/run-human-labels";

export const dynamic = "force-dynamic";

interface RunPageProps {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  await requireUser("viewer");
  const run = await getDb().evalRun.findUnique({ where: { id: (await params).id }, select: { name: true } });
  return { title: run ? `Evaluation · ${run.name}` : "Evaluation" };
}

/**
 * One evaluation run; the client polls its progress while it runs. Viewers read, reviewers also
 * cancel and resume. Below it, how the judge agrees with people's labels of the run's cuts.
 */
export default async function EvaluationPage({ params }: RunPageProps) {
  const user = await requireUser("viewer");
  const db = getDb();
  kickEvalRunner(db);
  const id = (await params).id;
  const [view, humanLabels] = await Promise.all([getRunView(db, id), getRunHumanLabels(db, id, { now: Date.now })]);
  if (!view) notFound();
  return (
    <>
      <div className="page-header">
        <h1>{view.run.name}</h1>
        <p>
          <Link href="/evaluations">Evaluations</Link> · {suiteLabel(view.run)} · {view.run.settings?.policies.length ?? 0} policies
          {view.run.settings ? (
            <>
              {" "}
              · cut levels{" "}
              <span className="mono" data-testid="run-cut-levels">
                {formatCutLevels(view.run.settings.cutLevels)}
              </span>
            </>
          ) : null}
        </p>
        {view.run.settings ? (
          <p className="faint" data-testid="run-harness">
            {harnessText(view.run.settings)}
          </p>
        ) : null}
        {customParams(view.run.settings) ? (
          <p className="faint mono" data-testid="run-params">
            {customParams(view.run.settings)}
          </p>
        ) : null}
      </div>
      <div className="stack">
        <EvaluationView initial={view} canControl={hasRole(user.role, "reviewer")} />
        <HumanLabels runId={view.run.id} queues={humanLabels} canCreate={hasRole(user.role, "admin")} />
      </div>
    </>
  );
}

/** The harness settings every policy ran under: pointer style, sweep budgets, matched reference. */
function harnessText(settings: { pointers: string; sweep?: number[] | undefined; match?: string | undefined }): string {
  return [
    `pointers ${settings.pointers}`,
    settings.sweep ? `budget sweep ${settings.sweep.map((p) => `${p}%`).join(", ")} of each prefix removed` : "no budget sweep",
    settings.match ? `matched budgets: every policy at the view size of ${settings.match}` : "no matched budgets",
  ].join(" · ");
}

/** Parameters set away from their defaults, `policy: name=value …`, or null when every policy runs with its defaults. */
function customParams(settings: { policies: { id: string; key?: string | undefined; params?: Record<string, unknown> | undefined }[] } | null): string | null {
  const parts = (settings?.policies ?? [])
    .filter((p) => p.params && Object.keys(p.params).length > 0)
    .map(
      (p) =>
        `${p.key ?? p.id}: ${Object.entries(p.params!)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(" ")}`,
    );
  return parts.length > 0 ? `parameters — ${parts.join("; ")}` : null;
}
