"use client";

import { FAILURE_CATEGORIES } from "@/lib/scenario/failure-categories";
import { plural } from "@/lib/util/plural";
import type { FailureView } from "./failure-panel";

const labelOf = (category: string) => FAILURE_CATEGORIES.find((c) => c.id === category)?.label ?? category;

type Dependency = NonNullable<FailureView["evidence"]>["dependencies"][number];

/**
 * The dependencies a reviewer weighs, lost first and then restorable with the sidecar holding each
 * (visible ones are not a failure). Statuses of contexts stored before the three verdicts
 * (`missing`, `recoverable`) read as `lost` and `restorable`.
 */
function ordered(dependencies: readonly Dependency[]): { d: Dependency; status: "lost" | "restorable" }[] {
  const statusOf = (d: Dependency) => ((d.status as string) === "missing" ? "lost" : (d.status as string) === "recoverable" ? "restorable" : d.status);
  const of = (want: "lost" | "restorable") => dependencies.filter((d) => statusOf(d) === want).map((d) => ({ d, status: want }));
  return [...of("lost"), ...of("restorable")];
}

/**
 * The judge's evidence on a failure item: its summary, culprit, its counts of lost, restorable and
 * visible dependencies, the lost ones first, then the restorable ones with their sidecar. Blind
 * queues: hidden (and not sent by the server) until the reviewer has saved an answer; once
 * revealed, the reviewer's saved answer is shown beside the judge's.
 */
export function JudgeEvidence({ view, saved }: { view: FailureView; saved?: { category: string; culpritId: string } }) {
  const evidence = view.evidence;
  if (view.blind === "hidden") {
    return (
      <section className="card card-body" aria-labelledby="evidence-heading" data-testid="judge-hidden">
        <h2 id="evidence-heading">Judge evidence</h2>
        <p className="muted">Blind review: the judge&apos;s category and culprit show once you have saved your answer.</p>
      </section>
    );
  }
  return (
    <section className={`card card-body${view.blind === "revealed" ? " review-reveal" : ""}`} aria-labelledby="evidence-heading" data-testid="judge-evidence">
      <h2 id="evidence-heading">Judge evidence{view.blind === "revealed" ? " (revealed after your answer)" : ""}</h2>
      {view.blind === "revealed" && saved ? (
        <p data-testid="your-answer">
          Your answer: {labelOf(saved.category)}, culprit <code>{saved.culpritId}</code>
          {evidence?.culprit ? (evidence.culprit === saved.culpritId ? " — the same culprit as the judge." : " — the judge named another culprit.") : null}
        </p>
      ) : null}
      {evidence ? (
        <>
          <p>{evidence.summary}</p>
          {evidence.culprit ? (
            <p>
              Judge&apos;s culprit: <code>{evidence.culprit}</code>
            </p>
          ) : null}
          {evidence.counts ? (
            <p data-testid="failure-counts">
              {evidence.counts.lost} lost · {evidence.counts.restorable} restorable · {evidence.counts.visible} visible
              {evidence.restores?.length
                ? ` · ${plural(evidence.restores.length, "restore")} (${plural(
                    evidence.restores.reduce((n, r) => n + r.cost, 0),
                    "token",
                  )})`
                : ""}
            </p>
          ) : null}
          <ul data-testid="failure-dependencies">
            {ordered(evidence.dependencies).map(({ d, status }) => (
              <li key={d.id} data-status={status}>
                <span className={`status ${status === "lost" ? "status-failed" : "status-duplicate"}`}>{status}</span> <code>{d.value}</code>{" "}
                <span className="muted">
                  {d.category ? labelOf(d.category) : d.kind}
                  {status === "lost" && d.lostBy ? ` · lost by ${d.lostBy.action} of ${d.lostBy.target}` : ""}
                  {status === "restorable" && d.sidecar ? ` · in the sidecar of ${d.sidecar.target} (sha256:${d.sidecar.sha256.slice(0, 12)})` : ""}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">No stored evidence for this unit.</p>
      )}
    </section>
  );
}
