"use client";

import { useState, useTransition, type ReactNode } from "react";

/** What a cancel or resume action answers (an ActionResult's shape, without its data). */
export type RunControlResult = { ok: true } | { ok: false; message: string };

export interface RunControlsCardProps {
  /** The card's accessible name ("Run progress", "Rollout progress"). */
  label: string;
  run: { status: string; cancelRequested: boolean; error: string | null };
  /** Reviewers and admins get cancel / resume; viewers only read. */
  canControl: boolean;
  /** The run kind's status pill and progress bar (each keeps its own test ids). */
  status: ReactNode;
  progress: ReactNode;
  /** Shown while a cancel waits for the current unit of work ("stopping after the current session…"). */
  stopping: string;
  /** What a failed run's error follows ("The run failed", "The rollout failed"). */
  failedLabel: string;
  cancel(): Promise<RunControlResult>;
  resume(): Promise<RunControlResult>;
  /** After a cancel or resume, whatever the answer: reload what the page shows. */
  onChanged(): void | Promise<void>;
  /** More controls on the same line (an evaluation's reproduction package). */
  children?: ReactNode;
}

/**
 * A persisted run's status, progress and — for reviewers — Cancel (queued, or running and not yet
 * asked to stop) and Resume (cancelled or failed), with the run's error and the last action's error.
 * Shared by evaluation runs and rollout runs, which differ only in what they count and call.
 */
export function RunControlsCard(props: RunControlsCardProps) {
  const { run, canControl } = props;
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const act = (action: () => Promise<RunControlResult>) =>
    startTransition(async () => {
      const result = await action();
      setError(result.ok ? null : result.message);
      await props.onChanged();
    });
  const cancellable = run.status === "queued" || (run.status === "running" && !run.cancelRequested);
  return (
    <section className="card card-body stack" aria-label={props.label}>
      <div className="row" style={{ gap: 12, alignItems: "center", flexWrap: "wrap" }}>
        {props.status}
        {props.progress}
        {run.cancelRequested && run.status === "running" ? <span className="faint">{props.stopping}</span> : null}
        {canControl && cancellable ? (
          <button type="button" className="btn btn-sm" disabled={pending} onClick={() => act(props.cancel)}>
            Cancel
          </button>
        ) : null}
        {canControl && (run.status === "cancelled" || run.status === "failed") ? (
          <button type="button" className="btn btn-sm btn-primary" disabled={pending} onClick={() => act(props.resume)}>
            Resume
          </button>
        ) : null}
        {props.children}
      </div>
      {run.error ? (
        <div className="alert alert-error" role="alert">
          {props.failedLabel}: {run.error}
        </div>
      ) : null}
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
