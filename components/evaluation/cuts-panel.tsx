"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { budgetLabel, compactHref, type EvalApiResponse, type RunCut } from "./eval-types";

/** The reading of one unit: visible (everything verbatim), restorable (nothing lost), lost; an LLM judge gives only the headline. */
export function readingOf(c: Pick<RunCut, "noImpact" | "visibleNoImpact" | "restorableNoImpact" | "uncertain">): { label: string; status: string } {
  if (c.visibleNoImpact === null || c.restorableNoImpact === null)
    return { label: c.noImpact ? `no impact${c.uncertain ? " (uncertain)" : ""}` : "impacted", status: c.noImpact ? "status-imported" : "status-failed" };
  if (c.visibleNoImpact) return { label: "visible", status: "status-imported" };
  if (c.restorableNoImpact) return { label: "restorable", status: "status-duplicate" };
  return { label: "lost", status: "status-failed" };
}

/**
 * Drill-down: every cut of one policy at one budget (its own settings, a sweep budget or matched)
 * with its reading — visible, restorable or lost — the dependency counts behind it, the restores
 * the future needs and their cost, and a visible link to the judge's evidence (a real link, so the
 * URL holds the selection and Back works) and to the replay page.
 */
export function CutsPanel({
  runId,
  policy,
  budget,
  budgets,
  version,
  selected,
  onBudget,
  evidenceHref,
  onEvidence,
}: {
  runId: string;
  policy: string;
  budget: string | null;
  /** Budget keys the run has (empty: own settings only). */
  budgets: string[];
  version: number;
  selected: string | null;
  onBudget: (budget: string | null) => void;
  evidenceHref: (cut: RunCut) => string;
  onEvidence: (cut: RunCut) => void;
}) {
  const [cuts, setCuts] = useState<RunCut[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setCuts(null);
    fetch(`/api/evaluations/${encodeURIComponent(runId)}/cuts?${new URLSearchParams({ policy, budget: budget ?? "own" })}`, { cache: "no-store" })
      .then((r) => r.json() as Promise<EvalApiResponse<RunCut[]>>)
      .then((body) => {
        if (!live) return;
        if (body.ok) {
          setCuts(body.data);
          setError(null);
        } else setError(body.message);
      })
      .catch((e: unknown) => live && setError(String(e)));
    return () => {
      live = false;
    };
  }, [runId, policy, budget, version]);
  const chooser =
    budgets.length > 0 ? (
      <label className="field" style={{ maxWidth: 280 }}>
        Budget
        <select
          className="select"
          value={budget ?? ""}
          onChange={(e) => onBudget(e.target.value === "" ? null : e.target.value)}
          aria-label="Budget of the listed cuts"
        >
          <option value="">own settings</option>
          {budgets.map((b) => (
            <option key={b} value={b}>
              {budgetLabel(b)}
            </option>
          ))}
        </select>
      </label>
    ) : null;
  if (error)
    return (
      <>
        {chooser}
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      </>
    );
  if (!cuts)
    return (
      <>
        {chooser}
        <p className="faint" role="status">
          Loading the cuts of {policy}…
        </p>
      </>
    );
  if (cuts.length === 0)
    return (
      <>
        {chooser}
        <p className="faint">
          No cuts of {policy} ({budgetLabel(budget)}) stored yet.
        </p>
      </>
    );
  const budgeted = budget !== null;
  return (
    <>
      {chooser}
      <div className="dt-scroll" style={{ maxHeight: 480 }}>
        <table className="dt" aria-label={`Cuts of ${policy}`}>
          <thead>
            <tr>
              <th>Session</th>
              <th className="num">Cut</th>
              <th>Reason</th>
              {budgeted ? <th className="num">Target tokens</th> : null}
              <th className="num">Prune %</th>
              <th className="num">Net prune %</th>
              <th>Outcome</th>
              <th className="num" title="dependencies visible / restorable / lost">
                Visible / restorable / lost
              </th>
              <th className="num">Restores (tokens)</th>
              <th>Culprit</th>
              <th>Links</th>
            </tr>
          </thead>
          <tbody>
            {cuts.map((c) => {
              const reading = readingOf(c);
              return (
                <tr key={c.unitKey} aria-selected={selected === c.unitKey} className={selected === c.unitKey ? "dt-row-highlight" : undefined}>
                  <td
                    title={`${c.sessionTitle} (${c.sessionId})`}
                    style={{ maxWidth: 220, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
                  >
                    {c.sessionTitle}
                  </td>
                  <td className="num">{c.cut}</td>
                  <td>{c.cutReason}</td>
                  {budgeted ? <td className="num">{c.targetTokens ?? "—"}</td> : null}
                  <td className="num">{c.error ? "—" : c.prunePct.toFixed(2)}</td>
                  <td className="num">{c.error || c.netPrunePct === null ? "—" : c.netPrunePct.toFixed(2)}</td>
                  <td>
                    {c.error ? (
                      <span className="status status-failed" title={c.error}>
                        failed
                      </span>
                    ) : (
                      <span className={`status ${reading.status}`} data-testid="cut-reading">
                        {reading.label}
                      </span>
                    )}
                  </td>
                  <td className="num">{c.counts ? `${c.counts.visible} / ${c.counts.restorable} / ${c.counts.lost}` : c.error ? "—" : `lost ${c.missing}`}</td>
                  <td className="num">{c.restores === null ? "—" : `${c.restores} (${c.restoreTokens ?? 0})`}</td>
                  <td className="mono">{c.culprit ?? "—"}</td>
                  <td style={{ whiteSpace: "nowrap" }}>
                    <a
                      href={evidenceHref(c)}
                      className="link-visible"
                      aria-label={`Evidence at cut ${c.cut} of ${c.sessionTitle}`}
                      onClick={(e) => {
                        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                        e.preventDefault();
                        onEvidence(c);
                      }}
                    >
                      Evidence
                    </a>
                    {c.error ? null : (
                      <>
                        {" · "}
                        <Link
                          className="link-visible"
                          href={compactHref(c.sessionId, policy, c.cut, c.window)}
                          title={budgeted ? "The replay page runs the policy at its own settings" : undefined}
                        >
                          Open replay
                        </Link>
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {budgeted ? <p className="faint">The replay page runs the policy at its own settings, not at this budget.</p> : null}
    </>
  );
}
