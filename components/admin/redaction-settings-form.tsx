"use client";

import { useActionState } from "react";
import { setRedactionSettingsAction } from "@/app/(studio)/admin/settings/actions";
import type { RedactionSettings } from "@/server/settings/redaction-settings";

/** The two redaction switches; the saved values come back from the action and stay shown. */
export function RedactionSettingsForm({ initial }: { initial: RedactionSettings }) {
  const [state, action, pending] = useActionState(setRedactionSettingsAction, null);
  const current = state?.ok ? state.data : initial;
  return (
    <section className="card card-body" aria-labelledby="redaction-heading">
      <form action={action} className="stack">
        <h2 id="redaction-heading">Upload redaction</h2>
        <label>
          <input type="checkbox" name="keepRawOriginals" defaultChecked={current.keepRawOriginals} /> Keep raw originals (the
          unredacted file is stored beside the redacted one)
        </label>
        <label>
          <input type="checkbox" name="redactEmails" defaultChecked={current.redactEmails} /> Redact e-mail addresses
        </label>
        <div>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            Save
          </button>{" "}
          {state?.ok ? <span role="status">Saved.</span> : null}
          {state && !state.ok ? <span className="field-error">{state.message}</span> : null}
        </div>
      </form>
    </section>
  );
}
