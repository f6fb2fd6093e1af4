"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { createQueueAction } from "@/app/(studio)/review/actions";
import { plural } from "@/lib/util/plural";

/**
 * Admins: a queue from an evaluation run, with its kind, overlap and lease timeout. `preselect`
 * (a run id, from the evaluation page's link) picks that run when it is in the list.
 */
export function CreateQueueForm({ runs, preselect }: { runs: { id: string; name: string; status: string }[]; preselect?: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    const result = await createQueueAction({
      runId: form.get("runId"),
      kind: form.get("kind"),
      name: form.get("name") || undefined,
      overlap: form.get("overlap"),
      leaseMinutes: form.get("leaseMinutes"),
    });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors ?? {});
      setMessage(result.message);
      return;
    }
    setErrors({});
    setMessage(`Created a queue of ${plural(result.data.items, "item")}.`);
    router.push(`/review/${result.data.queueId}`);
  }
  return (
    <form className="card card-body stack" onSubmit={submit} aria-labelledby="new-queue-heading">
      <h2 id="new-queue-heading">New review queue</h2>
      <label>
        Evaluation run
        <select name="runId" required defaultValue={runs.some((r) => r.id === preselect) ? preselect : runs[0]?.id}>
          {runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} ({r.status})
            </option>
          ))}
        </select>
      </label>
      <label>
        Kind
        <select name="kind" defaultValue="dependency">
          <option value="dependency">Future dependencies (one item per cut)</option>
          <option value="failure">Failure categories (impacted cut × policy)</option>
          <option value="ab">A/B disagreements (judges or policies disagree)</option>
        </select>
      </label>
      <label>
        Name (optional)
        <input name="name" maxLength={200} />
      </label>
      <label>
        Reviewers per item (overlap)
        <input name="overlap" type="number" min={1} max={20} defaultValue={1} />
        {errors.overlap ? <span className="field-error">{errors.overlap.join(" ")}</span> : null}
      </label>
      <label>
        Lease timeout (minutes)
        <input name="leaseMinutes" type="number" min={1} max={1440} defaultValue={15} />
        {errors.leaseMinutes ? <span className="field-error">{errors.leaseMinutes.join(" ")}</span> : null}
      </label>
      {message ? <p role="status" className={Object.keys(errors).length > 0 ? "field-error" : "muted"}>{message}</p> : null}
      <button type="submit" className="btn btn-primary" disabled={pending || runs.length === 0}>
        Create queue
      </button>
    </form>
  );
}
