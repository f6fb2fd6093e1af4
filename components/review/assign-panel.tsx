"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import "./review.css";
import { assignItemsAction } from "@/app/_actions/review";
import { plural } from "@/lib/util/plural";

export interface AssignmentSummary {
  /** Items offered to every reviewer. */
  open: number;
  /** Assignee e-mail → items assigned to them. */
  byReviewer: Record<string, number>;
}

/**
 * Admins: give the queue, or a slice of its items (positions from–to, as numbered in the queue's
 * order), to named reviewers; assigned items are offered only to them. *Clear* gives the slice
 * back to every reviewer.
 */
export function AssignPanel({
  queueId,
  items,
  reviewers,
  assignments,
}: {
  queueId: string;
  items: number;
  reviewers: { email: string; name: string }[];
  assignments: AssignmentSummary;
}) {
  const router = useRouter();
  const [result, setResult] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const mode = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value") === "clear" ? "clear" : "assign";
    setPending(true);
    const outcome = await assignItemsAction({
      queueId,
      mode,
      reviewers: form.getAll("reviewers"),
      from: form.get("from") || undefined,
      to: form.get("to") || undefined,
    });
    setPending(false);
    if (!outcome.ok) return setResult({ tone: "error", text: outcome.message });
    setResult({
      tone: "ok",
      text: mode === "clear" ? `${plural(outcome.data.items, "item")} offered to every reviewer again.` : `${plural(outcome.data.items, "item")} assigned.`,
    });
    router.refresh();
  }
  const assigned = Object.entries(assignments.byReviewer);
  return (
    <section className="card card-body" aria-labelledby="assign-heading">
      <form className="stack review-form" onSubmit={submit} aria-labelledby="assign-heading" noValidate>
        <h2 id="assign-heading">Assignment</h2>
        <p className="muted" data-testid="assignment-summary">
          {assigned.length === 0
            ? "Every item is offered to every reviewer."
            : `${assignments.open} of ${plural(items, "item")} open to everyone; assigned: ${assigned.map(([r, n]) => `${r} (${n})`).join(", ")}.`}
        </p>
        <fieldset>
          <legend>Reviewers</legend>
          {reviewers.map((r) => (
            <label key={r.email} className="check">
              <input type="checkbox" name="reviewers" value={r.email} /> {r.name} <span className="faint">({r.email})</span>
            </label>
          ))}
        </fieldset>
        <div className="review-form-grid">
          <div className="field">
            <label htmlFor="assign-from">From item</label>
            <input id="assign-from" name="from" className="input" type="number" min={1} max={items} placeholder="1" />
          </div>
          <div className="field">
            <label htmlFor="assign-to">To item</label>
            <input id="assign-to" name="to" className="input" type="number" min={1} max={items} placeholder={String(items)} />
          </div>
        </div>
        {result ? (
          <div role={result.tone === "error" ? "alert" : "status"} className={`alert alert-${result.tone}`}>
            {result.text}
          </div>
        ) : null}
        <div className="actions">
          <button type="submit" value="assign" className="btn btn-primary" disabled={pending}>
            Assign
          </button>
          <button type="submit" value="clear" className="btn" disabled={pending}>
            Clear assignment
          </button>
        </div>
      </form>
    </section>
  );
}
