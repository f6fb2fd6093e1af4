"use client";

import { startTransition, useActionState, useEffect, useRef, type FormEvent } from "react";
import { createKeyAction } from "@/app/_actions/admin-keys";
import { KEY_SCOPES } from "@/lib/ingest/keys/api-key";

/**
 * The "new API key" form. The created key is shown here once, selected for copying: the studio
 * keeps only its hash. Reset only on success, so a refused name stays as typed.
 */
export function CreateKeyForm() {
  const [state, action, pending] = useActionState(createKeyAction, null);
  const form = useRef<HTMLFormElement>(null);
  const shown = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!state?.ok) return;
    form.current?.reset();
    shown.current?.select();
  }, [state]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => action(data));
  };
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <section className="card card-body" aria-labelledby="new-key-heading">
      <form ref={form} onSubmit={onSubmit} className="stack" noValidate>
        <h2 id="new-key-heading">New API key</h2>
        <div className="field">
          <label htmlFor="new-key-name">Name</label>
          <input
            id="new-key-name"
            name="name"
            className="input"
            autoComplete="off"
            placeholder="ci-uploader"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "new-key-name-error" : undefined}
            required
          />
          {errors.name ? (
            <span id="new-key-name-error" className="field-error">
              {errors.name.join(" ")}
            </span>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="new-key-scope">Scope</label>
          <select id="new-key-scope" name="scope" className="select" defaultValue="ingest">
            {KEY_SCOPES.map((scope) => (
              <option key={scope} value={scope}>
                {scope}
              </option>
            ))}
          </select>
        </div>
        {state && !state.ok && !state.fieldErrors ? (
          <div className="alert alert-error" role="alert">
            {state.message}
          </div>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Creating…" : "Create key"}
        </button>
      </form>
      {state?.ok ? (
        <div className="alert alert-ok stack" role="status">
          <span>
            Created {state.data.scope} key “{state.data.name}”. Copy it now: it is not shown again.
          </span>
          <label htmlFor="created-key" className="visually-hidden">
            The new key
          </label>
          <input id="created-key" ref={shown} className="input mono" readOnly value={state.data.key} onFocus={(e) => e.currentTarget.select()} />
        </div>
      ) : null}
    </section>
  );
}
