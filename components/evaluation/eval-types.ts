/**
 * Client-side shapes of the evaluation API (types only, re-exported from server/ so the browser
 * bundle carries no server code), plus small formatting helpers shared by the run views.
 */
export type { EvalRunSummary } from "@/server/evaluation/get-run";
export type { RunView, EvalApiResponse } from "@/server/evaluation/run-view";
export type { RunCut, CutEvidence } from "@/server/evaluation/list-run-cuts";
export type { PolicyFrequency } from "@/server/evaluation/compaction-frequency";
export type { RunBreakdown } from "@/server/evaluation/get-run-breakdown";
export type { EvalRunStatus } from "@/server/evaluation/run-status";

export function isActive(status: string): boolean {
  return status === "queued" || status === "running";
}

export function pct(value: number): string {
  return `${value.toFixed(1)}%`;
}

/** `/sessions/<id>/compact?policy=&cut=&window=`: the replay page at exactly the evaluated cut and window. */
export function compactHref(sessionId: string, policy: string, cut: number, window: number): string {
  const query = new URLSearchParams({ policy, cut: String(cut) });
  if (window > 0) query.set("window", String(window));
  return `/sessions/${encodeURIComponent(sessionId)}/compact?${query.toString()}`;
}

/** A unit's budget for people: own settings, `sweep 40% removed`, `matched to self-gc`. */
export function budgetLabel(budget: string | null): string {
  if (budget === null) return "own settings";
  const sweep = /^budget-(\d+)$/.exec(budget);
  if (sweep) return `sweep ${sweep[1]}% removed`;
  const match = /^match-(.+)$/.exec(budget);
  return match ? `matched to ${match[1]}` : budget;
}
