"use client";

import { startTransition, useActionState, useEffect, useRef, type FormEvent } from "react";
import { createUserAction } from "@/app/_actions/admin-users";
import type { Role } from "@/server/auth/roles";

/**
 * The "new user" form; field errors from the action show under their fields. Submitted through
 * onSubmit rather than `<form action>` because React resets an action form after every submission,
 * which would wipe what the admin typed when the server refuses it; we reset only on success.
 */
export function CreateUserForm({ roles }: { roles: readonly Role[] }) {
  const [state, action, pending] = useActionState(createUserAction, null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state?.ok) form.current?.reset();
  }, [state]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => action(data));
  };
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  const field = (name: string) => ({
    id: `new-user-${name}`,
    name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `new-user-${name}-error` : undefined,
  });
  const error = (name: string) =>
    errors[name] ? (
      <span id={`new-user-${name}-error`} className="field-error">
        {errors[name].join(" ")}
      </span>
    ) : null;

  return (
    <section className="card card-body" aria-labelledby="new-user-heading">
      <form ref={form} onSubmit={onSubmit} className="stack" noValidate>
        <h2 id="new-user-heading">New user</h2>
        <div className="field">
          <label htmlFor="new-user-email">E-mail</label>
          <input {...field("email")} type="email" className="input" autoComplete="off" required />
          {error("email")}
        </div>
        <div className="field">
          <label htmlFor="new-user-name">Name</label>
          <input {...field("name")} className="input" autoComplete="off" required />
          {error("name")}
        </div>
        <div className="field">
          <label htmlFor="new-user-password">Password</label>
          <input {...field("password")} type="password" className="input" autoComplete="new-password" minLength={8} required />
          {error("password") ?? <span className="faint">At least 8 characters.</span>}
        </div>
        <div className="field">
          <label htmlFor="new-user-role">Role</label>
          <select {...field("role")} className="select" defaultValue="viewer">
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          {error("role")}
        </div>
        {state && !state.ok && !state.fieldErrors ? (
          <div className="alert alert-error" role="alert">
            {state.message}
          </div>
        ) : null}
        {state?.ok ? (
          <div className="alert alert-ok" role="status">
            Created {state.data.email} ({state.data.role}).
          </div>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Creating…" : "Create user"}
        </button>
      </form>
    </section>
  );
}
