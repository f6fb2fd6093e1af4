"use client";

import type { FormEvent, ReactNode } from "react";

export interface RunFormCardProps {
  /** The heading ("New evaluation"), also the card's accessible name; `idPrefix` names its ids ("eval", "rollout"). */
  heading: string;
  idPrefix: string;
  /** Placeholder of the optional name field (its name is `name`). */
  namePlaceholder: string;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  /** The form-wide error the server answered with (field errors are shown by the fields). */
  error: string | null;
  pending: boolean;
  /** The submit button's label ("Start rollout"); it reads "Starting…" while pending. */
  submitLabel: string;
  /** Disables the submit button (besides while pending), e.g. when no policy is chosen. */
  canSubmit?: boolean;
  /** The run kind's own fields, between the name and the error. */
  children: ReactNode;
}

/**
 * The frame of a "start a persisted run" form — card, heading, the optional name, the server's
 * error and the submit button — shared by the new-evaluation and new-rollout forms, which differ
 * only in the fields between. Submits without the browser's validation: the server checks every field.
 */
export function RunFormCard({ heading, idPrefix, namePlaceholder, onSubmit, error, pending, submitLabel, canSubmit = true, children }: RunFormCardProps) {
  return (
    <section className="card card-body" aria-labelledby={`new-${idPrefix}-heading`}>
      <form onSubmit={onSubmit} className="stack" noValidate>
        <h2 id={`new-${idPrefix}-heading`}>{heading}</h2>
        <div className="field">
          <label htmlFor={`${idPrefix}-name`}>Name (optional)</label>
          <input id={`${idPrefix}-name`} name="name" className="input" maxLength={200} placeholder={namePlaceholder} />
        </div>
        {children}
        {error ? (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        ) : null}
        <div>
          <button type="submit" className="btn btn-primary" disabled={pending || !canSubmit}>
            {pending ? "Starting…" : submitLabel}
          </button>
        </div>
      </form>
    </section>
  );
}
