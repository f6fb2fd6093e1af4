"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { budgetLabel, compactHref, type CutEvidence, type EvalApiResponse } from "./eval-types";

const yesNo = (x: boolean | null) => (x === null ? "—" : x ? "yes" : "no");

/**
 * The judge's evidence for one unit: its three readings (every dependency visible? nothing lost?
 * the headline), the dependency counts visible / restorable / lost, the sidecars the future
 * restores with their tokens and cost, then each dependency it checked — status, value (as text),
 * where it was planted and used, its failure category, the action that lost it or the sidecar
 * that holds it. Lost first, then restorable, then visible (the judge's order).
 */
export function EvidencePanel({ runId, unitKey }: { runId: string; unitKey: string }) {
  const [evidence, setEvidence] = useState<CutEvidence | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setEvidence(null);
    fetch(`/api/evaluations/${encodeURIComponent(runId)}/evidence?${new URLSearchParams({ unit: unitKey })}`, { cache: "no-store" })
      .then((r) => r.json() as Promise<EvalApiResponse<CutEvidence>>)
      .then((body) => live && (body.ok ? setEvidence(body.data) : setError(body.message)))
      .catch((e: unknown) => live && setError(String(e)));
    return () => {
      live = false;
    };
  }, [runId, unitKey]);
  if (error)
    return (
      <div className="alert alert-error" role="alert">
        {error}
      </div>
    );
  if (!evidence)
    return (
      <p className="faint" role="status">
        Loading the evidence…
      </p>
    );
  const restoreTokens = evidence.restores.reduce((n, r) => n + r.cost, 0);
  const replayHref = evidence.error ? null : compactHref(evidence.sessionId, evidence.policy, evidence.cut, evidence.window);
  return (
    <section className="stack" aria-label="Judge evidence" data-testid="evidence-panel" id="evidence">
      <p>
        <strong>{evidence.noImpact ? "No impact" : "Impacted"}</strong>
        {evidence.uncertain ? " (uncertain)" : ""} · judge <span className="mono">{evidence.judge}</span> · {budgetLabel(evidence.budget)}
        {evidence.culprit ? (
          <>
            {" "}
            · culprit <span className="mono">{evidence.culprit}</span>
          </>
        ) : null}
        {replayHref ? (
          <>
            {" "}
            ·{" "}
            <Link className="link-visible" href={replayHref}>
              Open this cut in the replay view{evidence.budget ? " (own settings)" : ""}
            </Link>
          </>
        ) : null}
      </p>
      <dl className="row" style={{ gap: 16, flexWrap: "wrap", margin: 0 }} data-testid="evidence-readings">
        <div>
          <dt className="faint">Every dependency visible</dt>
          <dd>{yesNo(evidence.visibleNoImpact)}</dd>
        </div>
        <div>
          <dt className="faint">Nothing lost (restorable)</dt>
          <dd>{yesNo(evidence.restorableNoImpact)}</dd>
        </div>
        <div>
          <dt className="faint">Headline</dt>
          <dd>{evidence.noImpact ? "no impact" : "impacted"}</dd>
        </div>
        {evidence.counts ? (
          <div data-testid="evidence-counts">
            <dt className="faint">Dependencies</dt>
            <dd>
              {evidence.counts.visible} visible · {evidence.counts.restorable} restorable · {evidence.counts.lost} lost
            </dd>
          </div>
        ) : null}
      </dl>
      {evidence.error ? (
        <div className="alert alert-error" role="alert">
          {evidence.error}
        </div>
      ) : null}
      {evidence.summary ? <p className="muted">{evidence.summary}</p> : null}
      {evidence.restores.length > 0 ? (
        <div className="stack" style={{ gap: 4 }}>
          <h3>
            Restores the future needs ({evidence.restores.length}, {restoreTokens} tokens)
          </h3>
          <table className="dt" aria-label="Restores">
            <thead>
              <tr>
                <th>Object</th>
                <th>Sidecar</th>
                <th className="num">Tokens</th>
                <th className="num">Cost (tokens + one call)</th>
              </tr>
            </thead>
            <tbody>
              {evidence.restores.map((r) => (
                <tr key={r.sha256}>
                  <td className="mono">{r.target}</td>
                  <td className="mono" title={r.sha256}>
                    sha256:{r.sha256.slice(0, 12)}
                  </td>
                  <td className="num">{r.tokens}</td>
                  <td className="num">{r.cost}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {evidence.dependencies.length === 0 ? (
        <p className="faint">The judge found no dependency of the future on the prefix at this cut.</p>
      ) : (
        <div className="dt-scroll" style={{ maxHeight: 420 }}>
          <table className="dt" aria-label="Dependencies">
            <thead>
              <tr>
                <th>Status</th>
                <th>Kind</th>
                <th>Value</th>
                <th>Planted</th>
                <th>Used</th>
                <th>Category</th>
                <th>Lost by / sidecar</th>
              </tr>
            </thead>
            <tbody>
              {evidence.dependencies.map((d) => (
                <tr key={d.id}>
                  <td>
                    <span className={`status ${d.status === "lost" ? "status-failed" : d.status === "restorable" ? "status-duplicate" : "status-imported"}`}>
                      {d.status}
                    </span>
                  </td>
                  <td>{d.kind}</td>
                  <td className="mono" style={{ maxWidth: 360, overflowWrap: "anywhere" }}>
                    {d.value}
                    {d.valueLength ? ` (${d.valueLength} chars)` : ""}
                  </td>
                  <td className="mono">{d.plantedAt ? `#${d.plantedAt.message}${d.plantedAt.objectId ? ` ${d.plantedAt.objectId}` : ""}` : "—"}</td>
                  <td className="mono">{d.usedAt ? `#${d.usedAt.message}` : "—"}</td>
                  <td>{d.category ?? "—"}</td>
                  <td className="mono">
                    {d.status === "restorable" && d.sidecar
                      ? `in ${d.sidecar.target} (sha256:${d.sidecar.sha256.slice(0, 12)})`
                      : d.lostBy
                        ? `${d.lostBy.action} ${d.lostBy.target} (${d.lostBy.rule})`
                        : "—"}
                  </td>
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
