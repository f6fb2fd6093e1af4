import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EvaluationView } from "@/components/evaluations/evaluation-view";
import { suiteLabel } from "@/components/evaluations/runs-table";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { kickEvalRunner } from "@/server/evals/eval-runner";
import { getRunView } from "@/server/evals/run-view";

export const dynamic = "force-dynamic";

interface RunPageProps {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  await requireUser("viewer");
  const run = await getDb().evalRun.findUnique({ where: { id: (await params).id }, select: { name: true } });
  return { title: run ? `Evaluation · ${run.name}` : "Evaluation" };
}

/** One evaluation run; the client polls its progress while it runs. Viewers read, reviewers also cancel and resume. */
export default async function EvaluationPage({ params }: RunPageProps) {
  const user = await requireUser("viewer");
  const db = getDb();
  kickEvalRunner(db);
  const view = await getRunView(db, (await params).id);
  if (!view) notFound();
  return (
    <>
      <div className="page-header">
        <h1>{view.run.name}</h1>
        <p>
          <Link href="/evaluations">Evaluations</Link> · {suiteLabel(view.run)} · {view.run.settings?.policies.length ?? 0} policies
        </p>
      </div>
      <EvaluationView initial={view} canControl={hasRole(user.role, "reviewer")} />
    </>
  );
}
