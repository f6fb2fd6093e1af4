"use client";

import { startTransition, useActionState, useState, type FormEvent } from "react";
import { setRedactionSettingsAction } from "@/app/_actions/admin-settings";
import { SECRET_KINDS } from "@/lib/redact/kinds";
import type { RedactionSettings } from "@/server/settings/redaction-settings";

/** The rules with a switch of their own (e-mail is the "Redact e-mail addresses" box). */
const SWITCHED = SECRET_KINDS.filter((k) => k.kind !== "email");

/**
 * The upload redaction settings: keep raw originals, e-mail addresses, one switch per rule and the
 * allow-list. Each rule's switch posts `rule.<kind>` = on/off (a hidden field, so an unchecked box
 * still says "off"); the saved values come back from the action and stay shown. Submitted through
 * onSubmit so a refused save keeps what the admin typed, with the error under its field.
 */
export function RedactionSettingsForm({ initial }: { initial: RedactionSettings }) {
  const [state, action, pending] = useActionState(setRedactionSettingsAction, null);
  const current = state?.ok ? state.data : initial;
  const [off, setOff] = useState<ReadonlySet<string>>(() => new Set(initial.disabledRules));
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => action(data));
  };
  const toggle = (kind: string, on: boolean) =>
    setOff((previous) => {
      const next = new Set(previous);
      if (on) next.delete(kind);
      else next.add(kind);
      return next;
    });
  return (
    <section className="card card-body" aria-labelledby="redaction-heading">
      <form onSubmit={onSubmit} className="stack" noValidate>
        <h2 id="redaction-heading">Upload redaction</h2>
        <label>
          <input type="checkbox" name="keepRawOriginals" defaultChecked={current.keepRawOriginals} /> Keep raw originals (the unredacted file is stored beside
          the redacted one)
        </label>
        <label>
          <input type="checkbox" name="redactEmails" defaultChecked={current.redactEmails} /> Redact e-mail addresses
        </label>
        <fieldset className="stack" aria-describedby={errors.rules ? "redaction-rules-error" : undefined}>
          <legend>Rules (a rule switched off finds nothing in uploads, imports and the upload preview)</legend>
          {SWITCHED.map(({ kind, label }) => (
            <label key={kind}>
              <input type="checkbox" checked={!off.has(kind)} onChange={(e) => toggle(kind, e.target.checked)} aria-label={`Rule ${kind}`} />{" "}
              <code>{kind}</code> <span className="muted">{label}</span>
              <input type="hidden" name={`rule.${kind}`} value={off.has(kind) ? "off" : "on"} />
            </label>
          ))}
          {errors.rules ? (
            <span id="redaction-rules-error" className="field-error">
              {errors.rules.join(" ")}
            </span>
          ) : null}
        </fieldset>
        <div className="field">
          <label htmlFor="redaction-allowList">Allow-list: values that are never secrets</label>
          <textarea
            id="redaction-allowList"
            name="allowList"
            className="input"
            rows={4}
            defaultValue={current.allowList.join("\n")}
            spellCheck={false}
            aria-invalid={errors.allowList ? true : undefined}
            aria-describedby={errors.allowList ? "redaction-allowList-error" : "redaction-allowList-hint"}
          />
          {errors.allowList ? (
            <span id="redaction-allowList-error" className="field-error">
              {errors.allowList.join(" ")}
            </span>
          ) : (
            <span id="redaction-allowList-hint" className="faint">
              One per line: an exact value (a test API key used in fixtures), or /regex/ (flags i, u) that must match the whole value.
            </span>
          )}
        </div>
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
