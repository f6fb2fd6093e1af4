"use client";

import { useActionState, useId } from "react";
import { setUserRoleAction } from "@/app/_actions/admin-users";
import type { Role } from "@/server/auth/roles";
import type { UserRecord } from "@/server/users/user-record";

/** Role select + Save for one user; a refusal (e.g. last admin) shows beside it. */
export function RoleForm({ user, roles }: { user: UserRecord; roles: readonly Role[] }) {
  const [state, action, pending] = useActionState(setUserRoleAction, null);
  const id = useId();
  return (
    <form action={action} className="row" style={{ flexWrap: "nowrap" }}>
      <input type="hidden" name="userId" value={user.id} />
      <label htmlFor={id} className="visually-hidden">
        Role of {user.email}
      </label>
      <select id={id} name="role" className="select" defaultValue={user.role} key={user.role}>
        {roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <button type="submit" className="btn btn-sm" disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </button>
      {state && !state.ok ? (
        <span className="field-error" role="alert">
          {state.message}
        </span>
      ) : null}
      {state?.ok ? (
        <span className="faint" role="status">
          Saved
        </span>
      ) : null}
    </form>
  );
}
