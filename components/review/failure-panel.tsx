"use client";

import { FAILURE_CATEGORIES } from "@/lib/scenario/failure-categories";
import { plural } from "@/lib/util/plural";
import { ProjectedView } from "./projected-view";
import type { ItemView } from "./review-types";

export type FailureView = Extract<ItemView, { queue: "failure_category" }>;
export interface FailureForm {
  category: string;
  culpritId: string;
  comment: string;
}

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
 * An impacted cut × policy: the projected view, what the policy removed or changed (the diff's
 * "before"), the judge's evidence — its counts of lost, restorable and visible dependencies, the
 * lost ones first, then the restorable ones with their sidecar — and the form (category 1–6,
 * culprit object id, comment).
 */
export function FailurePanel({ view, form, onChange }: { view: FailureView; form: FailureForm; onChange: (form: FailureForm) => void }) {
  const evidence = view.evidence;
  return (
    <div className="stack">
      <section className="card card-body stack" aria-labelledby="failure-form-heading">
        <h2 id="failure-form-heading">Why did {view.policy} fail here?</h2>
        <fieldset>
          <legend>Failure category</legend>
          {FAILURE_CATEGORIES.map((c, i) => (
            <label key={c.id} className="review-choice">
              <input type="radio" name="category" value={c.id} checked={form.category === c.id} onChange={() => onChange({ ...form, category: c.id })} /> <kbd>{i + 1}</kbd> {c.label}
            </label>
          ))}
        </fieldset>
        <label>
          Culprit object id
          <input list="object-ids" value={form.culpritId} onChange={(e) => onChange({ ...form, culpritId: e.target.value })} placeholder="function:read:3" />
          <datalist id="object-ids">
            {view.objectIds.map((id) => (
              <option key={id} value={id} />
            ))}
          </datalist>
        </label>
        <label>
          Comment (optional)
          <textarea value={form.comment} onChange={(e) => onChange({ ...form, comment: e.target.value })} rows={2} />
        </label>
      </section>
      <section className="card card-body" aria-labelledby="evidence-heading">
        <h2 id="evidence-heading">Judge evidence</h2>
        {evidence ? (
          <>
            <p>{evidence.summary}</p>
            {evidence.culprit ? <p>Judge&apos;s culprit: <code>{evidence.culprit}</code></p> : null}
            {evidence.counts ? (
              <p data-testid="failure-counts">
                {evidence.counts.lost} lost · {evidence.counts.restorable} restorable · {evidence.counts.visible} visible
                {evidence.restores?.length ? ` · ${plural(evidence.restores.length, "restore")} (${plural(evidence.restores.reduce((n, r) => n + r.cost, 0), "token")})` : ""}
              </p>
            ) : null}
            <ul data-testid="failure-dependencies">
              {ordered(evidence.dependencies).map(({ d, status }) => (
                <li key={d.id} data-status={status}>
                  <span className={`status ${status === "lost" ? "status-failed" : "status-duplicate"}`}>{status}</span> <code>{d.value}</code>{" "}
                  <span className="muted">
                    {d.category ?? d.kind}
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
      <div className="grid-2 review-columns">
        <section className="card card-body" aria-labelledby="view-heading">
          <h2 id="view-heading">Projected view</h2>
          <ProjectedView messages={view.view} label="Projected view" />
        </section>
        <section className="card card-body" aria-labelledby="removed-heading">
          <h2 id="removed-heading">Removed or changed ({plural(view.removed.length, "part")})</h2>
          <div className="review-messages">
            {view.removed.map((r) => (
              <div key={`${r.message}-${r.part}`} className="review-part">
                <div className="muted review-part-type">
                  #{r.message}.{r.part} {r.role} · {r.action}
                  {r.target ? ` · ${r.target}` : ""}
                </div>
                <pre>{r.text}</pre>
                {r.truncated ? <div className="muted">… (shortened)</div> : null}
              </div>
            ))}
          </div>
        </section>
      </div>
    </div>
  );
}
