"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { assignItemsAction } from "@/app/(studio)/review/actions";
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
export function AssignPanel({ queueId, items, reviewers, assignments }: { queueId: string; items: number; reviewers: { email: string; name: string }[]; assignments: AssignmentSummary }) {
  const router = useRouter();
  const [result, setResult] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const mode = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value") === "clear" ? "clear" : "assign";
    setPending(true);
    const outcome = await assignItemsAction({ queueId, mode, reviewers: form.getAll("reviewers"), from: form.get("from") || undefined, to: form.get("to") || undefined });
    setPending(false);
    if (!outcome.ok) return setResult({ tone: "error", text: outcome.message });
    setResult({ tone: "ok", text: mode === "clear" ? `${plural(outcome.data.items, "item")} offered to every reviewer again.` : `${plural(outcome.data.items, "item")} assigned.` });
    router.refresh();
  }
  const assigned = Object.entries(assignments.byReviewer);
  return (
    <form className="card card-body stack" onSubmit={submit} aria-labelledby="assign-heading">
      <h2 id="assign-heading">Assignment</h2>
      <p className="muted" data-testid="assignment-summary">
        {assigned.length === 0 ? "Every item is offered to every reviewer." : `${assignments.open} of ${plural(items, "item")} open to everyone; assigned: ${assigned.map(([r, n]) => `${r} (${n})`).join(", ")}.`}
      </p>
      <fieldset>
        <legend>Reviewers</legend>
        {reviewers.map((r) => (
          <label key={r.email} className="inline">
            <input type="checkbox" name="reviewers" value={r.email} /> {r.name} ({r.email})
          </label>
        ))}
      </fieldset>
      <label>
        From item
        <input name="from" type="number" min={1} max={items} placeholder="1" />
      </label>
      <label>
        To item
        <input name="to" type="number" min={1} max={items} placeholder={String(items)} />
      </label>
      {result ? <p role={result.tone === "error" ? "alert" : "status"} className={result.tone === "error" ? "field-error" : "muted"}>{result.text}</p> : null}
      <p>
        <button type="submit" value="assign" className="btn btn-primary" disabled={pending}>
          Assign
        </button>{" "}
        <button type="submit" value="clear" className="btn" disabled={pending}>
          Clear assignment
        </button>
      </p>
    </form>
  );
}
