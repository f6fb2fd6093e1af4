"use client";

import { DEPENDENCY_TYPES } from "@/lib/review/label-schema";
import { MessageTexts, type SelectedSpan } from "./message-texts";
import type { CandidateView, ItemView, ReviewLabel } from "./review-types";

export type DependencyView = Extract<ItemView, { queue: "dependency" }>;
export interface PendingAdd {
  future?: SelectedSpan;
  prefix?: SelectedSpan;
}

export const TYPE_LABELS: Record<(typeof DEPENDENCY_TYPES)[number], string> = {
  evidence_detail: "evidence detail",
  locator_handle: "locator / handle",
  behavioral_contract: "behavioral contract",
  verbatim_source: "verbatim source",
  live_state: "live state",
};

/** The reviewer's current decision thread on a candidate (matched by value, as lib/review does). */
export function decisionOf(view: DependencyView, candidate: CandidateView): ReviewLabel | undefined {
  return view.mine.find((l) => l.kind === "dependency" && l.decision !== "add" && l.value === candidate.value);
}

/**
 * A dependency item: the retained prefix and the real future side by side, the judge's candidates
 * (pre-filled as needed unless rejected), the dependencies the reviewer added, and the pending
 * add built from two text selections (future first, then prefix).
 */
export function DependencyPanel(props: {
  view: DependencyView;
  focused: number;
  onFocus: (i: number) => void;
  pending: PendingAdd;
  onSelect: (area: "prefix" | "future", span: SelectedSpan) => void;
}) {
  const { view, focused, pending } = props;
  const focusedCandidate = view.candidates[focused];
  const added = view.mine.filter((l) => l.kind === "dependency" && l.decision === "add" && !l.retracted);
  return (
    <div className="stack">
      <section className="card card-body" aria-labelledby="candidates-heading">
        <h2 id="candidates-heading">Judge candidates ({view.candidates.length})</h2>
        {view.candidates.length === 0 ? (
          <p className="muted">The dependency judge found nothing the future needed from the prefix. Add what it missed, or submit with Enter.</p>
        ) : null}
        <ul className="review-candidates" role="listbox" aria-label="Judge candidates">
          {view.candidates.map((c, i) => {
            const thread = decisionOf(view, c);
            const decision = thread && !thread.retracted && thread.kind === "dependency" ? thread.decision : "pending";
            const type = thread && thread.kind === "dependency" && thread.type ? thread.type : c.suggestedType;
            return (
              <li
                key={c.id}
                role="option"
                aria-selected={i === focused}
                data-decision={decision}
                className={i === focused ? "review-candidate focused" : "review-candidate"}
                onClick={() => props.onFocus(i)}
                data-testid={`candidate-${i}`}
              >
                <code>{c.value}</code>{" "}
                <span className="muted">
                  {c.kind} · planted #{c.plantedAt.message} · used #{c.usedAt.message}
                </span>{" "}
                <span className="role-badge">
                  {decision === "pending" ? `pre-filled: ${TYPE_LABELS[type]}` : decision === "confirm" ? `confirmed: ${TYPE_LABELS[type]}` : "rejected"}
                </span>
              </li>
            );
          })}
        </ul>
        {added.length > 0 ? (
          <>
            <h3>Added by you</h3>
            <ul>
              {added.map((l) =>
                l.kind === "dependency" ? (
                  <li key={l.labelId} data-testid="added-dependency">
                    <code>{l.prefix?.text}</code> → used as <code>{l.future?.text}</code> ({l.type ? TYPE_LABELS[l.type] : ""})
                  </li>
                ) : null,
              )}
            </ul>
          </>
        ) : null}
        <div className="review-pending" aria-live="polite" data-testid="pending-add">
          {pending.future ? (
            <p>
              Future span: <code>{pending.future.text}</code> (#{pending.future.message}).{" "}
              {pending.prefix ? (
                <>
                  Prefix span: <code>{pending.prefix.text}</code> (#{pending.prefix.message}). Pick its type:{" "}
                  {DEPENDENCY_TYPES.map((t, i) => `${i + 1} ${TYPE_LABELS[t]}`).join(", ")}.
                </>
              ) : (
                "Now select the span in the prefix it needed."
              )}
            </p>
          ) : (
            <p className="muted">To add a dependency, select the text in the future that used it, then the text in the prefix it came from.</p>
          )}
        </div>
      </section>
      <div className="grid-2 review-columns">
        <section className="card card-body" aria-labelledby="prefix-heading">
          <h2 id="prefix-heading">Retained prefix (before cut {view.ref.cut})</h2>
          {view.prefixStart > 0 ? <p className="muted">Messages before #{view.prefixStart} are not shown.</p> : null}
          <MessageTexts
            messages={view.prefix}
            area="prefix"
            onSelect={(s) => props.onSelect("prefix", s)}
            {...(focusedCandidate ? { highlight: focusedCandidate.plantedAt } : {})}
          />
        </section>
        <section className="card card-body" aria-labelledby="future-heading">
          <h2 id="future-heading">Real future</h2>
          <MessageTexts
            messages={view.future}
            area="future"
            onSelect={(s) => props.onSelect("future", s)}
            {...(focusedCandidate ? { highlight: focusedCandidate.usedAt } : {})}
          />
        </section>
      </div>
    </div>
  );
}
