"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import "./review.css";
import { DEPENDENCY_TYPES, VIEW_VERDICTS } from "@/lib/review/label-schema";
import { EMPTY_VIEW_VERDICT, viewVerdictDraft, type ViewVerdictForm } from "@/lib/review/view-verdict-draft";
import { FAILURE_CATEGORY_IDS } from "@/lib/scenario/failure-categories";
import { plural } from "@/lib/util/plural";
import { AbPanel, type AbForm } from "./ab-panel";
import { AgreementPanel } from "./agreement-panel";
import { CommentBox } from "./comment-box";
import { decisionOf, DependencyPanel, type PendingAdd } from "./dependency-panel";
import { FailurePanel, type FailureForm } from "./failure-panel";
import type { ItemView, ReviewLabel } from "./review-types";
import { ShortcutOverlay } from "./shortcut-overlay";
import { StatusBar } from "./status-bar";
import { useLabeling, type QueueStatus } from "./use-labeling";
import { useReviewKeys } from "./use-review-keys";
import { ViewVerdictPanel } from "./view-verdict-panel";

const EMPTY_FAILURE: FailureForm = { category: "", culpritId: "", comment: "" };
const EMPTY_AB: AbForm = { verdict: "", rationale: "", confidence: 0.7 };
const AB_KEYS = { a: "A_better", b: "B_better", t: "tie" } as const;

/** The reviewer's answer on a failure / A/B item: the current one, or the one an undo just withdrew (to edit and save again). */
function answerOf(view: ItemView | null, restored: boolean): ReviewLabel | undefined {
  const answers = view?.mine.filter((l) => l.kind === "failure_category" || l.kind === "ab" || l.kind === "view_verdict") ?? [];
  return answers.find((l) => !l.retracted) ?? (restored ? answers.find((l) => l.retracted) : undefined);
}

/** The text field focus moves to after a choice key, without the key being typed into it. */
function focusField(event: KeyboardEvent, field: HTMLElement | null): void {
  event.preventDefault();
  field?.focus();
}

/**
 * The keyboard-first labeling screen of one queue (`?` lists every shortcut). Reviewers label;
 * viewers see the progress and agreement only (the server refuses their labels anyway).
 */
export function LabelingScreen({
  queueId,
  kind,
  canLabel,
  me,
  initial,
}: {
  queueId: string;
  kind: "dependency" | "failure" | "ab" | "calibration";
  canLabel: boolean;
  me: string;
  initial: QueueStatus;
}) {
  const { view, done, status, notice, busy, restored, open, save, undo, forgetLastSave, setNotice } = useLabeling(queueId, canLabel, initial);
  const [overlay, setOverlay] = useState(false);
  const [focused, setFocused] = useState(0);
  const [pending, setPending] = useState<PendingAdd>({});
  const [failure, setFailure] = useState<FailureForm>(EMPTY_FAILURE);
  const [ab, setAb] = useState<AbForm>(EMPTY_AB);
  const [verdict, setVerdict] = useState<ViewVerdictForm>(EMPTY_VIEW_VERDICT);
  const lostRef = useRef<HTMLTextAreaElement>(null);
  const restoresRef = useRef<HTMLTextAreaElement>(null);
  const rationaleRef = useRef<HTMLTextAreaElement>(null);
  const culpritRef = useRef<HTMLInputElement>(null);

  // Forms reset when another item opens, not when the same item reloads (a comment, an undo).
  const itemKey = view?.itemKey;
  useEffect(() => {
    setFocused(0);
    setPending({});
    const current = answerOf(view, restored === itemKey);
    setFailure(
      current?.kind === "failure_category"
        ? { category: current.category, culpritId: current.culpritId, comment: current.comment ?? "" }
        : { ...EMPTY_FAILURE, culpritId: view?.queue === "failure_category" ? (view.evidence?.culprit ?? "") : "" },
    );
    setAb(current?.kind === "ab" ? { verdict: current.verdict, rationale: current.rationale, confidence: current.confidence } : EMPTY_AB);
    setVerdict(
      current?.kind === "view_verdict"
        ? {
            verdict: current.verdict,
            lost: (current.lost ?? []).map((l) => l.value).join("\n"),
            category: current.lost?.[0]?.category ?? "",
            restores: (current.restores ?? []).join("\n"),
            comment: current.comment ?? "",
          }
        : EMPTY_VIEW_VERDICT,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the item, read from its first load
  }, [itemKey]);

  const submit = useCallback(async () => {
    if (!view) return;
    const thread = view.mine.find((l) => l.kind === (view.queue === "dependency" ? "cut_review" : view.queue));
    // The save moves on (or reloads): the field must not keep the focus, so `u` and `j` stay shortcuts.
    const leaveField = () => (document.activeElement as HTMLElement | null)?.blur();
    if (view.queue === "dependency") return void (leaveField(), save({ kind: "cut_review" }, thread, "next"));
    if (view.queue === "failure_category") {
      if (!failure.category || !failure.culpritId.trim()) return setNotice({ tone: "error", text: "Pick a category (1–6) and name the culprit object id." });
      const draft = {
        kind: "failure_category",
        category: failure.category,
        culpritId: failure.culpritId.trim(),
        ...(failure.comment.trim() ? { comment: failure.comment.trim() } : {}),
      };
      const current = answerOf(view, false);
      // Blind: the first Enter saves and reveals the judge's answer; Enter on the revealed, unchanged answer moves on.
      if (
        view.blind === "revealed" &&
        current?.kind === "failure_category" &&
        current.category === draft.category &&
        current.culpritId === draft.culpritId &&
        (current.comment ?? "") === (draft.comment ?? "")
      ) {
        return void (leaveField(), open({ direction: "next" }));
      }
      return void (leaveField(), save(draft, thread, view.blind === "off" ? "next" : "reveal"));
    }
    if (view.queue === "view_verdict") {
      const made = viewVerdictDraft(verdict);
      if ("missing" in made) return setNotice({ tone: "error", text: made.missing });
      return void (leaveField(), save({ ...made.draft }, thread, "next"));
    }
    if (!ab.verdict || !ab.rationale.trim()) return setNotice({ tone: "error", text: "Pick a, b or t and write a rationale." });
    return void (leaveField(), save({ kind: "ab", verdict: ab.verdict, rationale: ab.rationale.trim(), confidence: ab.confidence }, thread, "next"));
  }, [view, failure, ab, verdict, save, open, setNotice]);

  const decide = useCallback(
    (decision: "confirm" | "reject", type?: string) => {
      if (view?.queue !== "dependency") return;
      const candidate = view.candidates[focused];
      if (!candidate) return;
      const thread = decisionOf(view, candidate);
      const typeOf = type ?? (thread?.kind === "dependency" && thread.type ? thread.type : candidate.suggestedType);
      void save(
        { kind: "dependency", decision, dependencyId: candidate.id, value: candidate.value, ...(decision === "confirm" ? { type: typeOf } : {}) },
        thread,
      ).then((ok) => {
        if (ok) setFocused((f) => Math.min(f + 1, view.candidates.length - 1));
      });
    },
    [view, focused, save],
  );

  /** The queue kind's own keys; true when handled. */
  const onKindKey = (event: KeyboardEvent): boolean => {
    const key = event.key;
    const n = Number(key);
    if (key === "j" || key === "k") {
      void open({ direction: key === "j" ? "next" : "previous" });
    } else if (view?.queue === "dependency" && (key === "ArrowDown" || key === "ArrowUp")) {
      event.preventDefault();
      setFocused((f) => (key === "ArrowDown" ? Math.min(f + 1, Math.max(0, view.candidates.length - 1)) : Math.max(0, f - 1)));
    } else if (view?.queue === "dependency" && (key === "y" || key === "n")) {
      decide(key === "y" ? "confirm" : "reject");
    } else if (view?.queue === "dependency" && n >= 1 && n <= DEPENDENCY_TYPES.length) {
      const type = DEPENDENCY_TYPES[n - 1]!;
      const { future, prefix } = pending;
      if (future && prefix) void save({ kind: "dependency", decision: "add", type, future, prefix, value: prefix.text }).then((ok) => ok && setPending({}));
      else decide("confirm", type);
    } else if (view?.queue === "failure_category" && n >= 1 && n <= FAILURE_CATEGORY_IDS.length) {
      setFailure((f) => ({ ...f, category: FAILURE_CATEGORY_IDS[n - 1]! }));
      focusField(event, culpritRef.current);
    } else if (view?.queue === "view_verdict" && n >= 1 && n <= VIEW_VERDICTS.length) {
      const picked = VIEW_VERDICTS[n - 1]!;
      setVerdict((f) => ({ ...f, verdict: picked }));
      if (picked === "restorable") focusField(event, restoresRef.current);
      else if (picked === "impact") focusField(event, lostRef.current);
    } else if (view?.queue === "ab" && Object.hasOwn(AB_KEYS, key)) {
      setAb((f) => ({ ...f, verdict: AB_KEYS[key as keyof typeof AB_KEYS] }));
      focusField(event, rationaleRef.current);
    } else return false;
    return true;
  };

  useReviewKeys({
    enabled: canLabel && !busy,
    submit: () => void submit(),
    undo: () => void undo(),
    forgetLastSave,
    onEscape: () => (setOverlay(false), setPending({})),
    toggleOverlay: () => setOverlay((o) => !o),
    onKey: onKindKey,
  });

  const saved = view?.queue === "failure_category" ? answerOf(view, false) : undefined;
  return (
    <div className="stack review-screen" data-testid="labeling-screen">
      <StatusBar status={status} me={me} notice={notice} busy={busy} />
      {overlay ? <ShortcutOverlay kind={kind} onClose={() => setOverlay(false)} /> : null}
      {!canLabel ? <p className="card card-body">You can read this queue&apos;s progress and agreement; labeling needs the reviewer role.</p> : null}
      {canLabel && done ? (
        <div className="card empty" data-testid="queue-done">
          <h2>Nothing left for you in this queue</h2>
          <p>
            Every item is done, completed by you, or open with another reviewer. Pressing <kbd>u</kbd> right after your last save still undoes it.
          </p>
        </div>
      ) : null}
      {canLabel && view ? (
        <div className="stack" data-testid="review-item">
          <div className="review-item-head">
            <h2 data-testid="item-title">
              {view.sessionTitle} · cut {view.ref.cut}
            </h2>
            <span className="muted" data-testid="item-position">
              Item {view.position} of {view.total}
            </span>
            <span className="muted" data-testid="completed-by">
              {plural(view.completedBy.length, "reviewer")} done{view.completedBy.includes(me) ? " (you included)" : ""}
            </span>
            <span className="muted">
              Press <kbd>?</kbd> for shortcuts
            </span>
          </div>
          {view.queue === "dependency" ? (
            <DependencyPanel
              view={view}
              focused={focused}
              onFocus={setFocused}
              pending={pending}
              onSelect={(area, span) => setPending((p) => (area === "future" ? { future: span } : p.future ? { ...p, prefix: span } : p))}
            />
          ) : null}
          {view.queue === "failure_category" ? (
            <FailurePanel view={view} form={failure} onChange={setFailure} culpritRef={culpritRef} {...(saved?.kind === "failure_category" ? { saved } : {})} />
          ) : null}
          {view.queue === "view_verdict" ? (
            <ViewVerdictPanel view={view} form={verdict} onChange={setVerdict} lostRef={lostRef} restoresRef={restoresRef} />
          ) : null}
          {view.queue === "ab" ? <AbPanel view={view} form={ab} onChange={setAb} rationaleRef={rationaleRef} /> : null}
          <CommentBox queueId={queueId} itemKey={view.itemKey} comments={view.comments} onSaved={() => void open({ itemKey: view.itemKey })} />
        </div>
      ) : null}
      <AgreementPanel agreement={status.agreement} />
    </div>
  );
}
