import Link from "next/link";
import type { RunLabelQueue } from "@/server/review/run-human-labels";
import { HumanRatesTable, JudgeAgreementView } from "./judge-agreement";

/**
 * "Human labels" on an evaluation run's page (issue #5: label cuts of a session, then see here how
 * the judge agrees with those labels). One block per dependency queue built from the run; an
 * empty state says what to do next: admins create a queue (the review page, with this run
 * preselected), everyone else is told who does, and a queue nobody labeled yet links to itself.
 */
export function HumanLabels({ runId, queues, canCreate }: { runId: string; queues: RunLabelQueue[]; canCreate: boolean }) {
  return (
    <section className="card card-body stack" aria-labelledby="human-labels-heading" data-testid="human-labels">
      <h2 id="human-labels-heading">Human labels</h2>
      {queues.length === 0 ? (
        <div className="empty" data-testid="human-labels-empty">
          <p>No one has labeled this run&apos;s cuts yet: reviewers label them in a dependency review queue built from this run.</p>
          <p>
            {canCreate ? (
              <Link href={`/review?run=${encodeURIComponent(runId)}`}>Create a dependency review queue from this run</Link>
            ) : (
              <>
                An admin creates the queue on the <Link href="/review">Review</Link> page.
              </>
            )}
          </p>
        </div>
      ) : (
        queues.map((queue) => <QueueLabels key={queue.id} queue={queue} />)
      )}
    </section>
  );
}

function QueueLabels({ queue }: { queue: RunLabelQueue }) {
  const href = `/review/${encodeURIComponent(queue.id)}`;
  return (
    <div className="stack" data-testid="human-labels-queue" aria-label={`Human labels of ${queue.name}`} role="group">
      <h3>
        <Link href={href}>{queue.name}</Link>
      </h3>
      <p className="faint">
        <span data-testid="labeled-cuts">{queue.labeledCuts}</span> of {queue.items} cuts labeled · {queue.humanVerdicts} human verdicts (reviewer × cut ×
        policy)
      </p>
      {queue.labeledCuts === 0 ? (
        <p className="empty" data-testid="human-labels-none">
          No cut of this queue is labeled yet. <Link href={href}>Open the queue</Link> to label its cuts.
        </p>
      ) : (
        <>
          {queue.judges.map((j) => (
            <JudgeAgreementView key={j.judge} agreement={j} />
          ))}
          {queue.rates.length > 0 ? (
            <>
              <h4>No-impact rate per policy</h4>
              <HumanRatesTable rates={queue.rates} />
            </>
          ) : null}
          {queue.spanProblems > 0 ? <p className="muted">{queue.spanProblems} added spans no longer match their session and are left out.</p> : null}
        </>
      )}
    </div>
  );
}
