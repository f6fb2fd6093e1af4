import { toRecord } from "@/lib/evaluation/aggregate/aggregate";
import { budgetKey, parseBudgetKey } from "@/lib/evaluation/cuts/budget";
import type { CutEvaluation } from "@/lib/evaluation/runner/evaluate-cut";

/** The columns of one EvalResult row (without the run id), built from a lib/evaluation suite item. */
export interface ResultRow {
  unitKey: string;
  sessionId: string;
  cut: number;
  cutReason: string;
  sessionShare: number;
  policy: string;
  /** lib/evaluation budgetKey of a budgeted unit (`budget-30`, `match-self-gc`); null at the policy's own settings. */
  budget: string | null;
  targetTokens: number | null;
  prefixTokens: number;
  window: number;
  tokensAfter: number;
  pruneRate: number;
  /** Null when the judge names no restores (an LLM judge) and for a failed unit. */
  netPruneRate: number | null;
  restores: number | null;
  restoreTokens: number | null;
  noImpact: boolean;
  /** The dependency judge's two readings; null for an LLM judge and a failed unit. */
  visibleNoImpact: boolean | null;
  restorableNoImpact: boolean | null;
  uncertain: boolean;
  missingByCategory: string;
  /** JSON: dependency kind → {visible, restorable, lost}; null when the judge gives no per-kind counts. */
  byKind: string | null;
  verdict: string;
  error: string | null;
}

/**
 * The policy key and budget of a unit key `<sessionId>#<cut>#<policyKey>[#<budgetKey>]`. Session
 * ids are database cuids and policy keys are refused with a `#` (run-settings.ts), so the third
 * segment is the policy key and a fourth, when present, the budget. Stored rows group by the
 * policy key, so two entries of one policy with different params stay apart, and by the budget.
 */
export function unitKeyParts(unitKey: string): { policy: string; budget: string | null } {
  const rest = unitKey.split("#").slice(2);
  const last = rest.at(-1);
  if (rest.length >= 2 && last !== undefined && parseBudgetKey(last)) return { policy: rest.slice(0, -1).join("#"), budget: last };
  return { policy: rest.join("#"), budget: null };
}

/** The policy key of a unit key (see `unitKeyParts`). */
export function policyKeyOf(unitKey: string): string {
  return unitKeyParts(unitKey).policy;
}

/** A judged unit as a row; `missingByCategory` and the readings are exactly what lib/evaluation's toRecord aggregates. */
export function resultRow(key: string, evaluation: CutEvaluation, sessionShare: number): ResultRow {
  const record = toRecord(evaluation);
  const parts = unitKeyParts(key);
  return {
    unitKey: key,
    sessionId: evaluation.sessionId,
    cut: evaluation.cut,
    cutReason: evaluation.reason,
    sessionShare,
    policy: parts.policy,
    budget: evaluation.budget ? budgetKey(evaluation.budget) : parts.budget,
    targetTokens: evaluation.targetTokens ?? null,
    prefixTokens: evaluation.prefixTokens,
    window: evaluation.window,
    tokensAfter: evaluation.tokensAfter,
    pruneRate: evaluation.pruneRate,
    netPruneRate: evaluation.netPruneRate ?? null,
    restores: evaluation.restores ?? null,
    restoreTokens: evaluation.restoreTokens ?? null,
    noImpact: evaluation.noImpact,
    visibleNoImpact: record.visibleNoImpact ?? null,
    restorableNoImpact: record.restorableNoImpact ?? null,
    uncertain: evaluation.verdict.uncertain,
    missingByCategory: JSON.stringify(record.missingByCategory),
    byKind: record.byKind ? JSON.stringify(record.byKind) : null,
    verdict: JSON.stringify(evaluation.verdict),
    error: null,
  };
}

/** A unit whose policy or judge threw: kept (so resume does not retry it forever) and counted as a failure. */
export function failedRow(key: string, sessionId: string, cut: number, cutReason: string, sessionShare: number, message: string): ResultRow {
  const parts = unitKeyParts(key);
  return {
    unitKey: key,
    sessionId,
    cut,
    cutReason,
    sessionShare,
    policy: parts.policy,
    budget: parts.budget,
    targetTokens: null,
    prefixTokens: 0,
    window: 0,
    tokensAfter: 0,
    pruneRate: 0,
    netPruneRate: null,
    restores: null,
    restoreTokens: null,
    noImpact: false,
    visibleNoImpact: null,
    restorableNoImpact: null,
    uncertain: false,
    missingByCategory: "{}",
    byKind: null,
    verdict: "null",
    error: message,
  };
}
