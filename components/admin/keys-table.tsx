"use client";

import { useActionState } from "react";
import { revokeKeyAction } from "@/app/_actions/admin-keys";
import { formatDateTime } from "@/lib/util/format-date-time";
import type { KeyRecord } from "@/server/ingest/keys/key-record";

/** Every key: its name, scope, first characters, when it was made and last used, and a revoke button. */
export function KeysTable({ keys }: { keys: KeyRecord[] }) {
  if (keys.length === 0) {
    return (
      <div className="card card-body">
        <p className="muted">No API keys yet. Create one to upload traces from a script or CI job.</p>
      </div>
    );
  }
  return (
    <div className="card">
      <table className="dt" aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Scope</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">State</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>{key.scope}</td>
              <td className="mono">{key.prefix}…</td>
              <td className="faint">{formatDateTime(key.createdAt)}</td>
              <td className="faint">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "never"}</td>
              <td>{key.revokedAt ? <span className="faint">revoked {formatDateTime(key.revokedAt)}</span> : <RevokeButton keyRecord={key} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RevokeButton({ keyRecord }: { keyRecord: KeyRecord }) {
  const [state, action, pending] = useActionState(revokeKeyAction, null);
  return (
    <form
      action={action}
      className="row"
      style={{ flexWrap: "nowrap" }}
      onSubmit={(event) => {
        if (!window.confirm(`Revoke the key “${keyRecord.name}”? Requests with it are refused from now on.`)) event.preventDefault();
      }}
    >
      <input type="hidden" name="keyId" value={keyRecord.id} />
      <button type="submit" className="btn btn-sm" disabled={pending} aria-label={`Revoke ${keyRecord.name}`}>
        {pending ? "Revoking…" : "Revoke"}
      </button>
      {state && !state.ok ? (
        <span className="field-error" role="alert">
          {state.message}
        </span>
      ) : null}
    </form>
  );
}
