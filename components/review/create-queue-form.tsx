"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import "./review.css";
import { createQueueAction } from "@/app/_actions/review";
import { AbPairFields, type AbCutsChoice } from "./ab-pair-fields";
import { FieldError, fieldProps } from "./field-error";
import { plural } from "@/lib/util/plural";

export interface QueueRunChoice {
  id: string;
  name: string;
  status: string;
  /** The run's policy keys (what its results are stored under). */
  policies: string[];
}

type Kind = "dependency" | "failure" | "ab";

/**
 * Admins: a queue from an evaluation run — its kind; for A/B the two policies and which cuts; an
 * optional seeded sample; blind mode for failure-category queues (on by default: a calibration
 * queue should not show the judge's answer first); overlap and lease timeout. `preselect` (a run
 * id, from the evaluation page's link) picks that run when it is in the list. Errors come back
 * from the server field by field.
 */
export function CreateQueueForm({ runs, preselect }: { runs: QueueRunChoice[]; preselect?: string }) {
  const router = useRouter();
  const [runId, setRunId] = useState(runs.some((r) => r.id === preselect) ? preselect! : (runs[0]?.id ?? ""));
  const [kind, setKind] = useState<Kind>("dependency");
  const [pair, setPair] = useState<{ policyA: string; policyB: string; cuts: AbCutsChoice }>(() => defaultPair(runs.find((r) => r.id === runId)));
  const [blind, setBlind] = useState(true);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const run = runs.find((r) => r.id === runId);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    setPending(true);
    const result = await createQueueAction({
      runId,
      kind,
      name: text("name"),
      overlap: form.get("overlap"),
      leaseMinutes: form.get("leaseMinutes"),
      sampleSize: text("sampleSize"),
      seed: text("seed"),
      ...(kind === "ab" ? { policyA: pair.policyA || undefined, policyB: pair.policyB || undefined, cuts: pair.cuts } : {}),
      ...(kind === "failure" ? { blind } : {}),
    });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors ?? {});
      setMessage({ tone: "error", text: result.message });
      return;
    }
    setErrors({});
    setMessage({ tone: "ok", text: `Created a queue of ${plural(result.data.items, "item")}.` });
    router.push(`/review/${result.data.queueId}`);
  }

  const input = (name: string) => ({ ...fieldProps("queue", name, errors), className: "input" });
  return (
    <section className="card card-body" aria-labelledby="new-queue-heading">
      <form className="stack review-form" onSubmit={submit} noValidate aria-labelledby="new-queue-heading">
        <h2 id="new-queue-heading">New review queue</h2>
        <div className="review-form-grid">
          <div className="field">
            <label htmlFor="queue-runId">Evaluation run</label>
            <select
              {...fieldProps("queue", "runId", errors)}
              className="select"
              value={runId}
              onChange={(e) => {
                setRunId(e.target.value);
                setPair(defaultPair(runs.find((r) => r.id === e.target.value)));
              }}
            >
              {runs.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name} ({r.status})
                </option>
              ))}
            </select>
            <FieldError prefix="queue" name="runId" errors={errors} />
          </div>
          <div className="field">
            <label htmlFor="queue-kind">Kind</label>
            <select {...fieldProps("queue", "kind", errors)} className="select" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
              <option value="dependency">Future dependencies (one item per cut)</option>
              <option value="failure">Failure categories (impacted cut × policy)</option>
              <option value="ab">A/B: two policies compared at a cut</option>
            </select>
            <FieldError prefix="queue" name="kind" errors={errors} />
          </div>
          <div className="field">
            <label htmlFor="queue-name">Name (optional)</label>
            <input {...input("name")} maxLength={200} />
            <FieldError prefix="queue" name="name" errors={errors} />
          </div>
        </div>
        {kind === "ab" ? (
          <AbPairFields policies={run?.policies ?? []} {...pair} errors={errors} onChange={(next) => setPair((p) => ({ ...p, ...next }))} />
        ) : null}
        {kind === "failure" ? (
          <label className="check">
            <input type="checkbox" name="blind" checked={blind} onChange={(e) => setBlind(e.target.checked)} /> Blind: hide the judge&apos;s category and
            culprit until the reviewer has answered (for calibrating the judge)
          </label>
        ) : null}
        <FieldError prefix="queue" name="blind" errors={errors} />
        <div className="review-form-grid">
          <div className="field">
            <label htmlFor="queue-sampleSize">Sample size (optional)</label>
            <input {...input("sampleSize")} type="number" min={1} placeholder="every item" />
            <FieldError prefix="queue" name="sampleSize" errors={errors} />
          </div>
          <div className="field">
            <label htmlFor="queue-seed">Seed (optional)</label>
            <input {...input("seed")} type="number" min={0} placeholder="derived from the run" />
            <FieldError prefix="queue" name="seed" errors={errors} />
          </div>
          <div className="field">
            <label htmlFor="queue-overlap">Reviewers per item (overlap)</label>
            <input {...input("overlap")} type="number" min={1} max={20} defaultValue={1} />
            <FieldError prefix="queue" name="overlap" errors={errors} />
          </div>
          <div className="field">
            <label htmlFor="queue-leaseMinutes">Lease timeout (minutes)</label>
            <input {...input("leaseMinutes")} type="number" min={1} max={1440} defaultValue={15} />
            <FieldError prefix="queue" name="leaseMinutes" errors={errors} />
          </div>
        </div>
        <span className="hint">
          A sample keeps that many items, drawn with the seed and kept in queue order; the same seed gives the same sample (and the same A/B sides). The queue
          page names the seed.
        </span>
        {message ? (
          <div role={message.tone === "error" ? "alert" : "status"} className={`alert alert-${message.tone}`}>
            {message.text}
          </div>
        ) : null}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={pending || runs.length === 0}>
            {pending ? "Creating…" : "Create queue"}
          </button>
        </div>
      </form>
    </section>
  );
}

/** A/B defaults for a run: its first two policies, the cuts where the judge disagrees. */
function defaultPair(run: QueueRunChoice | undefined): { policyA: string; policyB: string; cuts: AbCutsChoice } {
  return { policyA: run?.policies[0] ?? "", policyB: run?.policies[1] ?? "", cuts: "disagreements" };
}
