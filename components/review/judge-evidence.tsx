"use client";

import { FAILURE_CATEGORIES } from "@/lib/scenario/failure-categories";
import type { FailureView } from "./failure-panel";

const labelOf = (category: string) => FAILURE_CATEGORIES.find((c) => c.id === category)?.label ?? category;

/**
 * The judge's evidence on a failure item: its summary, culprit and the missing dependencies with
 * their categories. Blind queues: hidden (and not sent by the server) until the reviewer has
 * saved an answer; once revealed, the reviewer's saved answer is shown beside the judge's.
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
  const missing = evidence?.dependencies.filter((d) => d.status === "missing") ?? [];
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
          <ul>
            {missing.map((d) => (
              <li key={d.id}>
                <code>{d.value}</code>{" "}
                <span className="muted">
                  missing · {d.category ? labelOf(d.category) : d.kind}
                  {d.lostBy ? ` · lost by ${d.lostBy.action} of ${d.lostBy.target}` : ""}
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
