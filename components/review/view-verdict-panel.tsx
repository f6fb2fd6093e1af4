"use client";

import type { RefObject } from "react";
import { VIEW_VERDICTS } from "@/lib/review/label-schema";
import type { ViewVerdictForm } from "@/lib/review/view-verdict-draft";
import { FAILURE_CATEGORIES } from "@/lib/scenario/failure-categories";
import { plural } from "@/lib/util/plural";
import { MessageTexts } from "./message-texts";
import type { ItemView } from "./review-types";

export type ViewVerdictView = Extract<ItemView, { queue: "view_verdict" }>;
const VERDICT_TEXT: Record<(typeof VIEW_VERDICTS)[number], string> = {
  no_impact: "No impact: everything the future needs is visible in the view",
  restorable: "Restorable: some of it is only in sidecars the view names",
  impact: "Impact: something the future needs is lost",
};

/**
 * A calibration item: the view as the agent would see it after compaction, with the sidecars it
 * names, beside the real future — no policy name, no judge — and the blind verdict form (1/2/3,
 * the lost values or the restores, a comment; Enter saves).
 */
export function ViewVerdictPanel({
  view,
  form,
  onChange,
  lostRef,
  restoresRef,
}: {
  view: ViewVerdictView;
  form: ViewVerdictForm;
  onChange: (form: ViewVerdictForm) => void;
  lostRef?: RefObject<HTMLTextAreaElement | null>;
  restoresRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  return (
    <div className="stack">
      <section className="card card-body" aria-labelledby="verdict-form-heading">
        <div className="stack review-form" data-review-form>
          <h2 id="verdict-form-heading">Does this view still support the real future?</h2>
          <fieldset>
            <legend>Verdict</legend>
            {VIEW_VERDICTS.map((v, i) => (
              <label key={v} className="review-choice">
                <input type="radio" name="view-verdict" value={v} checked={form.verdict === v} onChange={() => onChange({ ...form, verdict: v })} />{" "}
                <kbd>{i + 1}</kbd> {VERDICT_TEXT[v]}
              </label>
            ))}
          </fieldset>
          <div className="review-form-grid">
            <div className="field">
              <label htmlFor="verdict-lost">Lost values (impact; one per line)</label>
              <textarea
                id="verdict-lost"
                ref={lostRef}
                className="input mono"
                data-submit-on-enter
                rows={2}
                value={form.lost}
                onChange={(e) => onChange({ ...form, lost: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor="verdict-category">Category of the lost values</label>
              <select id="verdict-category" className="select" value={form.category} onChange={(e) => onChange({ ...form, category: e.target.value })}>
                <option value="">—</option>
                {FAILURE_CATEGORIES.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="verdict-restores">Restores (restorable; sidecar digests, one per line)</label>
              <textarea
                id="verdict-restores"
                ref={restoresRef}
                className="input mono"
                data-submit-on-enter
                rows={2}
                value={form.restores}
                onChange={(e) => onChange({ ...form, restores: e.target.value })}
              />
            </div>
          </div>
          <div className="field">
            <label htmlFor="verdict-comment">Comment (optional)</label>
            <textarea
              id="verdict-comment"
              className="input"
              data-submit-on-enter
              rows={2}
              value={form.comment}
              onChange={(e) => onChange({ ...form, comment: e.target.value })}
            />
          </div>
        </div>
      </section>
      <div className="grid-2 review-columns">
        <section className="card card-body stack" aria-labelledby="view-heading">
          <h2 id="view-heading">The view ({plural(view.view.length, "message")})</h2>
          <MessageTexts messages={view.view} area="view" />
          <h3>Sidecars the view names ({view.sidecars.length})</h3>
          {view.sidecars.length === 0 ? <p className="muted">None: nothing folded away can be restored.</p> : null}
          {view.sidecars.map((s) => (
            <details key={s.digest} className="review-part" data-testid="view-sidecar">
              <summary>
                <code>{s.digest.slice(0, 12)}</code> · {s.objectId}
                {s.missing ? " · not rebuilt from the trace" : ""}
              </summary>
              <pre>{s.text}</pre>
              {s.truncated ? <div className="muted">… (shortened for display)</div> : null}
            </details>
          ))}
        </section>
        <section className="card card-body" aria-labelledby="future-heading">
          <h2 id="future-heading">The real future</h2>
          <MessageTexts messages={view.future} area="future" />
        </section>
      </div>
    </div>
  );
}
