"use client";

import { useActionState } from "react";
import { applyRetentionAction } from "@/app/_actions/admin-retention";
import { plural } from "@/lib/util/plural";

/** Deletes what the preview lists, once the admin types "delete"; says what went and what was kept. */
export function RetentionForm({ olderThan, due }: { olderThan: string; due: number }) {
  const [state, action, pending] = useActionState(applyRetentionAction, null);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <form action={action} className="stack" aria-label="Delete">
      <input type="hidden" name="olderThan" value={olderThan} />
      <div className="field">
        <label htmlFor="retention-confirm">Type delete to confirm</label>
        <input
          id="retention-confirm"
          name="confirm"
          className="input"
          autoComplete="off"
          aria-invalid={errors.confirm ? true : undefined}
          aria-describedby={errors.confirm ? "retention-confirm-error" : undefined}
        />
        {errors.confirm ? (
          <span id="retention-confirm-error" className="field-error">
            {errors.confirm.join(" ")}
          </span>
        ) : null}
      </div>
      <button type="submit" className="btn btn-danger" disabled={pending || due === 0}>
        {pending ? "Deleting…" : `Delete uploads older than ${olderThan}`}
      </button>
      {state && !state.ok && !state.fieldErrors ? (
        <div className="alert alert-error" role="alert">
          {state.message}
        </div>
      ) : null}
      {state?.ok ? (
        <div className="alert alert-ok" role="status">
          Deleted {plural(state.data.deleted.length, "upload")} (
          {plural(
            state.data.deleted.reduce((n, d) => n + d.sessions, 0),
            "session",
          )}
          ).
          {state.data.refused.length > 0
            ? ` Kept ${plural(state.data.refused.length, "upload")}: ${state.data.refused.map((r) => `${r.fileName} (${r.reason})`).join("; ")}.`
            : ""}
        </div>
      ) : null}
    </form>
  );
}
