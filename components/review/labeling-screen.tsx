"use client";

import { useCallback, useEffect, useState } from "react";
import "./review.css";
import { DEPENDENCY_TYPES } from "@/lib/review/label-schema";
import { FAILURE_CATEGORY_IDS } from "@/lib/scenario/failure-categories";
import { plural } from "@/lib/util/plural";
import { AbPanel, type AbForm } from "./ab-panel";
import { AgreementPanel } from "./agreement-panel";
import { CommentBox } from "./comment-box";
import { decisionOf, DependencyPanel, type PendingAdd } from "./dependency-panel";
import { FailurePanel, type FailureForm } from "./failure-panel";
import { ShortcutOverlay } from "./shortcut-overlay";
import { StatusBar } from "./status-bar";
import { useLabeling, type QueueStatus } from "./use-labeling";

const EMPTY_FAILURE: FailureForm = { category: "", culpritId: "", comment: "" };
const EMPTY_AB: AbForm = { verdict: "", rationale: "", confidence: 0.7 };

/**
 * The keyboard-first labeling screen of one queue (`?` lists every shortcut). Reviewers label;
 * viewers see the progress and agreement only (the server refuses their labels anyway).
 */
export function LabelingScreen({ queueId, kind, canLabel, me, initial }: { queueId: string; kind: "dependency" | "failure" | "ab"; canLabel: boolean; me: string; initial: QueueStatus }) {
  const { view, done, status, notice, busy, open, save, undo, setNotice } = useLabeling(queueId, canLabel, initial);
  const [overlay, setOverlay] = useState(false);
  const [focused, setFocused] = useState(0);
  const [pending, setPending] = useState<PendingAdd>({});
  const [failure, setFailure] = useState<FailureForm>(EMPTY_FAILURE);
  const [ab, setAb] = useState<AbForm>(EMPTY_AB);

  // Forms reset when another item opens, not when the same item reloads (a comment, an undo).
  const itemKey = view?.itemKey;
  useEffect(() => {
    setFocused(0);
    setPending({});
    const current = view?.mine.find((l) => !l.retracted && (l.kind === "failure_category" || l.kind === "ab"));
    setFailure(current?.kind === "failure_category" ? { category: current.category, culpritId: current.culpritId, comment: current.comment ?? "" } : { ...EMPTY_FAILURE, culpritId: view?.queue === "failure_category" ? (view.evidence?.culprit ?? "") : "" });
    setAb(current?.kind === "ab" ? { verdict: current.verdict, rationale: current.rationale, confidence: current.confidence } : EMPTY_AB);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the item, read from its first load
  }, [itemKey]);

  const submit = useCallback(async () => {
    if (!view) return;
    const thread = view.mine.find((l) => l.kind === (view.queue === "dependency" ? "cut_review" : view.queue));
    if (view.queue === "dependency") return void save({ kind: "cut_review" }, thread, "next");
    if (view.queue === "failure_category") {
      if (!failure.category || !failure.culpritId.trim()) return setNotice({ tone: "error", text: "Pick a category (1–6) and name the culprit object id." });
      return void save({ kind: "failure_category", category: failure.category, culpritId: failure.culpritId.trim(), ...(failure.comment.trim() ? { comment: failure.comment.trim() } : {}) }, thread, "next");
    }
    if (!ab.verdict || !ab.rationale.trim()) return setNotice({ tone: "error", text: "Pick a, b or t and write a rationale." });
    return void save({ kind: "ab", verdict: ab.verdict, rationale: ab.rationale.trim(), confidence: ab.confidence }, thread, "next");
  }, [view, failure, ab, save, setNotice]);

  const decide = useCallback(
    (decision: "confirm" | "reject", type?: string) => {
      if (view?.queue !== "dependency") return;
      const candidate = view.candidates[focused];
      if (!candidate) return;
      const thread = decisionOf(view, candidate);
      const typeOf = type ?? (thread?.kind === "dependency" && thread.type ? thread.type : candidate.suggestedType);
      void save({ kind: "dependency", decision, dependencyId: candidate.id, value: candidate.value, ...(decision === "confirm" ? { type: typeOf } : {}) }, thread).then((ok) => {
        if (ok) setFocused((f) => Math.min(f + 1, view.candidates.length - 1));
      });
    },
    [view, focused, save],
  );

  const onKey = useCallback(
    (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable);
      if (event.key === "Escape") {
        setOverlay(false);
        setPending({});
        return;
      }
      if (typing && event.key === "Enter" && target.tagName === "INPUT" && canLabel && !busy) return void submit();
      if (typing || event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === "?") return setOverlay((o) => !o);
      if (!canLabel || busy) return;
      const key = event.key;
      if (key === "j") return void open({ direction: "next" });
      if (key === "k") return void open({ direction: "previous" });
      if (key === "u") return void undo();
      if (key === "Enter") return void submit();
      if (view?.queue === "dependency") {
        if (key === "ArrowDown") return (event.preventDefault(), setFocused((f) => Math.min(f + 1, Math.max(0, view.candidates.length - 1))));
        if (key === "ArrowUp") return (event.preventDefault(), setFocused((f) => Math.max(0, f - 1)));
        if (key === "y") return decide("confirm");
        if (key === "n") return decide("reject");
        const n = Number(key);
        if (n >= 1 && n <= DEPENDENCY_TYPES.length) {
          const type = DEPENDENCY_TYPES[n - 1]!;
          if (pending.future && pending.prefix) {
            const { future, prefix } = pending;
            return void save({ kind: "dependency", decision: "add", type, future, prefix, value: prefix.text }).then((ok) => ok && setPending({}));
          }
          return decide("confirm", type);
        }
      }
      if (view?.queue === "failure_category") {
        const n = Number(key);
        if (n >= 1 && n <= FAILURE_CATEGORY_IDS.length) return setFailure((f) => ({ ...f, category: FAILURE_CATEGORY_IDS[n - 1]! }));
      }
      if (view?.queue === "ab") {
        const verdict = ({ a: "A_better", b: "B_better", t: "tie" } as const)[key as "a" | "b" | "t"];
        if (verdict) return setAb((f) => ({ ...f, verdict }));
      }
    },
    [canLabel, busy, open, undo, submit, view, decide, pending, save],
  );

  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onKey]);

  return (
    <div className="stack review-screen" data-testid="labeling-screen">
      <StatusBar status={status} me={me} notice={notice} busy={busy} />
      {overlay ? <ShortcutOverlay kind={kind} onClose={() => setOverlay(false)} /> : null}
      {!canLabel ? <p className="card card-body">You can read this queue&apos;s progress and agreement; labeling needs the reviewer role.</p> : null}
      {canLabel && done ? (
        <div className="card empty" data-testid="queue-done">
          <h2>Nothing left for you in this queue</h2>
          <p>Every item is done, completed by you, or open with another reviewer.</p>
        </div>
      ) : null}
      {canLabel && view ? (
        <div className="stack" data-testid="review-item">
          <div className="review-item-head">
            <h2 data-testid="item-title">
              {view.sessionTitle} · cut {view.ref.cut}
            </h2>
            <span className="muted" data-testid="completed-by">
              {plural(view.completedBy.length, "reviewer")} done{view.completedBy.includes(me) ? " (you included)" : ""}
            </span>
            <span className="muted">Press <kbd>?</kbd> for shortcuts</span>
          </div>
          {view.queue === "dependency" ? (
            <DependencyPanel view={view} focused={focused} onFocus={setFocused} pending={pending} onSelect={(area, span) => setPending((p) => (area === "future" ? { future: span } : p.future ? { ...p, prefix: span } : p))} />
          ) : null}
          {view.queue === "failure_category" ? <FailurePanel view={view} form={failure} onChange={setFailure} /> : null}
          {view.queue === "ab" ? <AbPanel view={view} form={ab} onChange={setAb} /> : null}
          <CommentBox queueId={queueId} itemKey={view.itemKey} comments={view.comments} onSaved={() => void open({ itemKey: view.itemKey })} />
        </div>
      ) : null}
      <AgreementPanel agreement={status.agreement} />
    </div>
  );
}
