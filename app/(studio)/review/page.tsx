import type { Metadata } from "next";
import Link from "next/link";
import { CreateQueueForm } from "@/components/review/create-queue-form";
import { GoldImportForm } from "@/components/review/gold-import-form";
import { QueuesTable } from "@/components/review/queues-table";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { listRuns } from "@/server/evaluation/get-run";
import { policyKey } from "@/server/evaluation/run-settings";
import { listQueues } from "@/server/review/queue-progress";

export const metadata: Metadata = { title: "Review" };
export const dynamic = "force-dynamic";

/** Review queues with their progress; admins create a queue from an evaluation run (`?run=ID` preselects it); reviewers and admins import a gold file as a calibration queue. */
export default async function ReviewPage({ searchParams }: { searchParams: Promise<{ run?: string | string[] }> }) {
  const user = await requireUser("viewer");
  const db = getDb();
  const isAdmin = hasRole(user.role, "admin");
  const canImportGold = hasRole(user.role, "reviewer");
  const [queues, runs] = await Promise.all([listQueues(db, { now: Date.now }), isAdmin ? listRuns(db) : Promise.resolve([])]);
  const { run } = await searchParams;
  return (
    <>
      <div className="page-header">
        <h1>Review</h1>
        <p>People decide what the future really depended on, why a compaction failed and which projection is better — and how far the judges can be trusted.</p>
      </div>
      <div className="stack">
        {queues.length === 0 ? (
          <div className="card empty">
            <h2>No review queues yet</h2>
            <p>{isAdmin ? "Create one from an evaluation run below." : "An admin creates queues from evaluation runs."}</p>
          </div>
        ) : (
          <QueuesTable queues={queues} />
        )}
        {isAdmin && runs.length === 0 ? (
          <div className="card empty">
            <p>
              Queues are built from evaluation results. <Link href="/evaluations">Run an evaluation</Link> first.
            </p>
          </div>
        ) : null}
        {canImportGold ? <GoldImportForm /> : null}
        {isAdmin && runs.length > 0 ? (
          <CreateQueueForm
            runs={runs
              .filter((r) => r.done > 0)
              .map((r) => ({ id: r.id, name: r.name, status: r.status, policies: r.settings?.policies.map(policyKey) ?? [] }))}
            {...(typeof run === "string" ? { preselect: run } : {})}
          />
        ) : null}
      </div>
    </>
  );
}
