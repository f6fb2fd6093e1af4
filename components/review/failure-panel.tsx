"use client";

import type { RefObject } from "react";
import { FAILURE_CATEGORIES } from "@/lib/scenario/failure-categories";
import { plural } from "@/lib/util/plural";
import { JudgeEvidence } from "./judge-evidence";
import { ProjectedView } from "./projected-view";
import type { ItemView } from "./review-types";

export type FailureView = Extract<ItemView, { queue: "failure_category" }>;
export interface FailureForm {
  category: string;
  culpritId: string;
  comment: string;
}

/**
 * An impacted cut × policy: the projected view, what the policy removed or changed (the diff's
 * "before"), the judge's evidence, and the form (category 1–6, culprit object id, comment). In a
 * blind queue the server sends no evidence until the reviewer has saved an answer (`view.blind`):
 * the panel says so, then shows the judge's answer beside the reviewer's.
 */
export function FailurePanel({
  view,
  form,
  onChange,
  culpritRef,
  saved,
}: {
  view: FailureView;
  form: FailureForm;
  onChange: (form: FailureForm) => void;
  culpritRef?: RefObject<HTMLInputElement | null>;
  saved?: { category: string; culpritId: string };
}) {
  return (
    <div className="stack">
      <section className="card card-body" aria-labelledby="failure-form-heading">
        <div className="stack review-form" data-review-form>
          <h2 id="failure-form-heading">Why did {view.policy} fail here?</h2>
          <fieldset>
            <legend>Failure category</legend>
            {FAILURE_CATEGORIES.map((c, i) => (
              <label key={c.id} className="review-choice">
                <input type="radio" name="category" value={c.id} checked={form.category === c.id} onChange={() => onChange({ ...form, category: c.id })} />{" "}
                <kbd>{i + 1}</kbd> {c.label}
              </label>
            ))}
          </fieldset>
          <div className="review-form-grid">
            <div className="field">
              <label htmlFor="failure-culprit">Culprit object id</label>
              <input
                id="failure-culprit"
                ref={culpritRef}
                className="input mono"
                list="object-ids"
                value={form.culpritId}
                onChange={(e) => onChange({ ...form, culpritId: e.target.value })}
                placeholder="function:read:3"
              />
              <datalist id="object-ids">
                {view.objectIds.map((id) => (
                  <option key={id} value={id} />
                ))}
              </datalist>
            </div>
          </div>
          <div className="field">
            <label htmlFor="failure-comment">Comment (optional)</label>
            <textarea
              id="failure-comment"
              className="input"
              data-submit-on-enter
              value={form.comment}
              onChange={(e) => onChange({ ...form, comment: e.target.value })}
              rows={2}
            />
          </div>
        </div>
      </section>
      <JudgeEvidence view={view} saved={saved} />
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
