"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { compactHref, type EvalApiResponse, type RunCut } from "./eval-types";

/** Drill-down: every cut of one policy with its outcome; selecting one shows the judge's evidence. */
export function CutsPanel({ runId, policy, version, selected, onSelect }: { runId: string; policy: string; version: number; selected: string | null; onSelect: (cut: RunCut) => void }) {
  const [cuts, setCuts] = useState<RunCut[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setCuts(null);
    fetch(`/api/evaluations/${encodeURIComponent(runId)}/cuts?${new URLSearchParams({ policy })}`, { cache: "no-store" })
      .then((r) => r.json() as Promise<EvalApiResponse<RunCut[]>>)
      .then((body) => {
        if (!live) return;
        if (body.ok) { setCuts(body.data); setError(null); } else setError(body.message);
      })
      .catch((e: unknown) => live && setError(String(e)));
    return () => { live = false; };
  }, [runId, policy, version]);
  if (error) return <div className="alert alert-error" role="alert">{error}</div>;
  if (!cuts) return <p className="faint" role="status">Loading the cuts of {policy}…</p>;
  if (cuts.length === 0) return <p className="faint">No cuts of {policy} stored yet.</p>;
  return (
    <div className="dt-scroll" style={{ maxHeight: 420 }}>
      <table className="dt" aria-label={`Cuts of ${policy}`}>
        <thead>
          <tr><th>Session</th><th>Cut</th><th>Reason</th><th>Prune %</th><th>Outcome</th><th>Missing</th><th>Culprit</th><th>Replay</th></tr>
        </thead>
        <tbody>
          {cuts.map((c) => (
            <tr key={c.unitKey} aria-selected={selected === c.unitKey}>
              <td title={c.sessionId}>{c.sessionTitle}</td>
              <td className="num">
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => onSelect(c)} aria-label={`Evidence at cut ${c.cut} of ${c.sessionTitle}`}>{c.cut}</button>
              </td>
              <td>{c.cutReason}</td>
              <td className="num">{c.error ? "—" : c.prunePct.toFixed(2)}</td>
              <td>{c.error ? <span className="status status-failed" title={c.error}>failed</span> : c.noImpact ? `no impact${c.uncertain ? " (uncertain)" : ""}` : "impacted"}</td>
              <td className="num">{c.missing}</td>
              <td className="mono">{c.culprit ?? "—"}</td>
              <td>{c.error ? null : <Link href={compactHref(c.sessionId, policy, c.cut, c.window)}>Open replay</Link>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
