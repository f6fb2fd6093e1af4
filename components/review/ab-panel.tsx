"use client";

import type { RefObject } from "react";
import { MessageTexts } from "./message-texts";
import { ProjectedView } from "./projected-view";
import type { ItemView } from "./review-types";

export type AbView = Extract<ItemView, { queue: "ab" }>;
export interface AbForm {
  verdict: "" | "A_better" | "B_better" | "tie";
  rationale: string;
  confidence: number;
}

/**
 * Two projections of one cut, unlabeled (the server never sends which policy is which), and the
 * real future below. `rationaleRef` lets the screen move the focus to the rationale after `a`/`b`/`t`;
 * Enter there submits (Shift+Enter is a new line).
 */
export function AbPanel({
  view,
  form,
  onChange,
  rationaleRef,
}: {
  view: AbView;
  form: AbForm;
  onChange: (form: AbForm) => void;
  rationaleRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  return (
    <div className="stack">
      <section className="card card-body" aria-labelledby="ab-form-heading">
        <div className="stack review-form" data-review-form>
          <h2 id="ab-form-heading">Which projection serves the real future better?</h2>
          <fieldset role="radiogroup" aria-label="Verdict">
            <legend>Verdict</legend>
            {(["A_better", "B_better", "tie"] as const).map((v) => (
              <label key={v} className="review-choice">
                <input type="radio" name="ab-verdict" checked={form.verdict === v} onChange={() => onChange({ ...form, verdict: v })} />{" "}
                <kbd>{v === "tie" ? "t" : v[0]!.toLowerCase()}</kbd> {v === "tie" ? "Tie" : `${v[0]} is better`}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="ab-rationale">Rationale</label>
            <textarea
              id="ab-rationale"
              ref={rationaleRef}
              className="input"
              data-submit-on-enter
              value={form.rationale}
              onChange={(e) => onChange({ ...form, rationale: e.target.value })}
              rows={2}
              aria-describedby="ab-rationale-hint"
            />
            <span id="ab-rationale-hint" className="hint">
              Enter submits · Shift+Enter starts a new line
            </span>
          </div>
          <div className="field">
            <label htmlFor="ab-confidence">Confidence ({Math.round(form.confidence * 100)}%)</label>
            <input
              id="ab-confidence"
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={form.confidence}
              onChange={(e) => onChange({ ...form, confidence: Number(e.target.value) })}
            />
          </div>
        </div>
      </section>
      <div className="grid-2 review-columns">
        <section className="card card-body" aria-labelledby="a-heading">
          <h2 id="a-heading">Projection A</h2>
          <ProjectedView messages={view.A} label="Projection A" />
        </section>
        <section className="card card-body" aria-labelledby="b-heading">
          <h2 id="b-heading">Projection B</h2>
          <ProjectedView messages={view.B} label="Projection B" />
        </section>
      </div>
      <section className="card card-body" aria-labelledby="ab-future-heading">
        <h2 id="ab-future-heading">Real future</h2>
        <MessageTexts messages={view.future} area="future" />
      </section>
    </div>
  );
}
