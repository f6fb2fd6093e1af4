import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LabelingScreen } from "@/components/review/labeling-screen";
import { TransferPanel } from "@/components/review/transfer-panel";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { getQueueAgreement } from "@/server/review/queue-agreement";
import { getQueueSummary } from "@/server/review/queue-progress";

export const metadata: Metadata = { title: "Review queue" };
export const dynamic = "force-dynamic";

/** One queue: the labeling screen (reviewers), its progress and agreement (everyone), export / import. */
export default async function ReviewQueuePage({ params }: { params: Promise<{ queueId: string }> }) {
  const user = await requireUser("viewer");
  const { queueId } = await params;
  const db = getDb();
  const clock = { now: Date.now };
  const [summary, agreement] = await Promise.all([getQueueSummary(db, queueId, clock), getQueueAgreement(db, queueId, clock)]);
  if (!summary || !agreement) notFound();
  return (
    <>
      <div className="page-header">
        <p>
          <Link href="/review">Review</Link>
        </p>
        <h1>{summary.name}</h1>
        <p className="muted">
          {summary.items} items from <Link href={`/evaluations/${summary.runId}`}>{summary.runName ?? "a deleted run"}</Link> · overlap {summary.overlap} · lease {summary.leaseMinutes} min
        </p>
      </div>
      <div className="stack">
        <LabelingScreen queueId={queueId} kind={summary.kind} canLabel={hasRole(user.role, "reviewer")} me={user.email} initial={{ summary, agreement }} />
        <TransferPanel queueId={queueId} canImport={hasRole(user.role, "admin")} />
      </div>
    </>
  );
}
