import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AssignPanel } from "@/components/review/assign-panel";
import { LabelingScreen } from "@/components/review/labeling-screen";
import { QueueOptions } from "@/components/review/queue-options";
import { TransferPanel } from "@/components/review/transfer-panel";
import { plural } from "@/lib/util/plural";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { queueAssignments } from "@/server/review/assign-items";
import { queueContextProgress } from "@/server/review/prepare-contexts";
import { getQueueAgreement } from "@/server/review/queue-agreement";
import { getQueueSummary } from "@/server/review/queue-progress";
import { listUsers } from "@/server/users/list-users";

export const metadata: Metadata = { title: "Review queue" };
export const dynamic = "force-dynamic";

/** One queue: the labeling screen (reviewers), its progress and agreement (everyone), export / import, assignment (admins). */
export default async function ReviewQueuePage({ params }: { params: Promise<{ queueId: string }> }) {
  const user = await requireUser("viewer");
  const { queueId } = await params;
  const db = getDb();
  const clock = { now: Date.now };
  const isAdmin = hasRole(user.role, "admin");
  const [summary, agreement, prepared] = await Promise.all([
    getQueueSummary(db, queueId, clock),
    getQueueAgreement(db, queueId, clock),
    queueContextProgress(db, queueId),
  ]);
  if (!summary || !agreement) notFound();
  const [assignments, users] = isAdmin ? await Promise.all([queueAssignments(db, queueId), listUsers(db)]) : [null, []];
  return (
    <>
      <div className="page-header">
        <p>
          <Link href="/review">Review</Link>
        </p>
        <h1>{summary.name}</h1>
        <p className="muted">
          {plural(summary.items, "item")}{" "}
          {summary.runId === null ? (
            "imported from a gold file (views labelled blind)"
          ) : (
            <>
              from <Link href={`/evaluations/${summary.runId}`}>{summary.runName ?? "a deleted run"}</Link>
            </>
          )}{" "}
          · overlap {summary.overlap} · lease {summary.leaseMinutes} min
          {prepared.ready < prepared.total ? (
            <span data-testid="contexts-progress">
              {" "}
              · preparing items {prepared.ready} / {prepared.total} (an item opened before then is prepared when opened)
            </span>
          ) : null}
        </p>
        <QueueOptions summary={summary} />
      </div>
      <div className="stack">
        <LabelingScreen queueId={queueId} kind={summary.kind} canLabel={hasRole(user.role, "reviewer")} me={user.email} initial={{ summary, agreement }} />
        {assignments ? (
          <AssignPanel
            queueId={queueId}
            items={summary.items}
            reviewers={users.filter((u) => hasRole(u.role, "reviewer")).map((u) => ({ email: u.email, name: u.name }))}
            assignments={assignments}
          />
        ) : null}
        <TransferPanel queueId={queueId} canImport={isAdmin} gold={summary.kind === "calibration"} />
      </div>
    </>
  );
}
