"use client";

import { FieldError, fieldProps } from "./field-error";

export type AbCutsChoice = "disagreements" | "all";

/**
 * The A/B part of the new-queue form: the two policies compared (from the chosen run's policies)
 * and which of their cuts the queue holds — where the judge tells them apart (default), or every
 * cut judged for both.
 */
export function AbPairFields({
  policies,
  policyA,
  policyB,
  cuts,
  errors,
  onChange,
}: {
  policies: string[];
  policyA: string;
  policyB: string;
  cuts: AbCutsChoice;
  errors: Record<string, string[]>;
  onChange: (next: { policyA?: string; policyB?: string; cuts?: AbCutsChoice }) => void;
}) {
  const select = (name: "policyA" | "policyB", label: string, value: string) => (
    <div className="field">
      <label htmlFor={`queue-${name}`}>{label}</label>
      <select {...fieldProps("queue", name, errors)} className="select" value={value} onChange={(e) => onChange({ [name]: e.target.value })}>
        <option value="">choose a policy…</option>
        {policies.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
      <FieldError prefix="queue" name={name} errors={errors} />
    </div>
  );
  return (
    <>
      <div className="review-form-grid">
        {select("policyA", "Policy A", policyA)}
        {select("policyB", "Policy B", policyB)}
      </div>
      <span className="hint">Reviewers never see which policy is which: each item shows the two projections as A and B in a seeded random order.</span>
      <fieldset aria-describedby={errors.cuts ? "queue-cuts-error" : undefined}>
        <legend>Cuts</legend>
        <label className="check">
          <input type="radio" name="cuts" value="disagreements" checked={cuts === "disagreements"} onChange={() => onChange({ cuts: "disagreements" })} /> Where
          the judge disagrees between A and B
        </label>
        <label className="check">
          <input type="radio" name="cuts" value="all" checked={cuts === "all"} onChange={() => onChange({ cuts: "all" })} /> All cuts judged for both
        </label>
        <FieldError prefix="queue" name="cuts" errors={errors} />
      </fieldset>
    </>
  );
}
