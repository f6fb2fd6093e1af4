"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import type { CutEvidence, EvalApiResponse } from "./eval-types";

/**
 * The judge's evidence for one unit: its summary, then each dependency it checked — status, value
 * (as text), where it was planted and used, its failure category and the action that lost it.
 */
export function EvidencePanel({ runId, unitKey, replayHref }: { runId: string; unitKey: string; replayHref: string | null }) {
  const [evidence, setEvidence] = useState<CutEvidence | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setEvidence(null);
    fetch(`/api/evaluations/${encodeURIComponent(runId)}/evidence?${new URLSearchParams({ unit: unitKey })}`, { cache: "no-store" })
      .then((r) => r.json() as Promise<EvalApiResponse<CutEvidence>>)
      .then((body) => live && (body.ok ? setEvidence(body.data) : setError(body.message)))
      .catch((e: unknown) => live && setError(String(e)));
    return () => { live = false; };
  }, [runId, unitKey]);
  if (error) return <div className="alert alert-error" role="alert">{error}</div>;
  if (!evidence) return <p className="faint" role="status">Loading the evidence…</p>;
  return (
    <section className="stack" aria-label="Judge evidence" data-testid="evidence-panel">
      <p>
        <strong>{evidence.noImpact ? "No impact" : "Impacted"}</strong>
        {evidence.uncertain ? " (uncertain)" : ""} · judge <span className="mono">{evidence.judge}</span>
        {evidence.culprit ? <> · culprit <span className="mono">{evidence.culprit}</span></> : null}
        {replayHref ? <> · <Link href={replayHref}>Open this cut in the replay view</Link></> : null}
      </p>
      {evidence.error ? <div className="alert alert-error" role="alert">{evidence.error}</div> : null}
      {evidence.summary ? <p className="muted">{evidence.summary}</p> : null}
      {evidence.dependencies.length === 0 ? <p className="faint">The judge found no dependency of the future on the prefix at this cut.</p> : (
        <div className="dt-scroll" style={{ maxHeight: 420 }}>
          <table className="dt" aria-label="Dependencies">
            <thead><tr><th>Status</th><th>Kind</th><th>Value</th><th>Planted</th><th>Used</th><th>Category</th><th>Lost by</th></tr></thead>
            <tbody>
              {evidence.dependencies.map((d) => (
                <tr key={d.id}>
                  <td><span className={`status ${d.status === "lost" ? "status-failed" : d.status === "restorable" ? "status-duplicate" : "status-imported"}`}>{d.status}</span></td>
                  <td>{d.kind}</td>
                  <td className="mono" style={{ maxWidth: 360, overflowWrap: "anywhere" }}>{d.value}{d.valueLength ? ` (${d.valueLength} chars)` : ""}</td>
                  <td className="mono">{d.plantedAt ? `#${d.plantedAt.message}${d.plantedAt.objectId ? ` ${d.plantedAt.objectId}` : ""}` : "—"}</td>
                  <td className="mono">{d.usedAt ? `#${d.usedAt.message}` : "—"}</td>
                  <td>{d.category ?? "—"}</td>
                  <td className="mono">{d.lostBy ? `${d.lostBy.action} ${d.lostBy.target} (${d.lostBy.rule})` : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {evidence.omitted > 0 ? <p className="faint">{evidence.omitted} more dependencies not stored (counts above are complete).</p> : null}
        </div>
      )}
    </section>
  );
}
