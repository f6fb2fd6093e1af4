import { toRecord } from "@/lib/eval/aggregate";
import type { CutEvaluation } from "@/lib/eval/evaluate-cut";

/** The columns of one EvalResult row (without the run id), built from a lib/eval suite item. */
export interface ResultRow {
  unitKey: string;
  sessionId: string;
  cut: number;
  cutReason: string;
  sessionShare: number;
  policy: string;
  prefixTokens: number;
  window: number;
  tokensAfter: number;
  pruneRate: number;
  noImpact: boolean;
  uncertain: boolean;
  missingByCategory: string;
  verdict: string;
  error: string | null;
}

/**
 * The policy key of a unit key `<sessionId>#<cut>#<policyKey>`. Session ids are database cuids
 * (no `#`), so everything after the second `#` is the key. Stored rows group by this key, so two
 * entries of one policy with different params stay apart.
 */
export function policyKeyOf(unitKey: string): string {
  return unitKey.split("#").slice(2).join("#");
}

/** A judged unit as a row; `missingByCategory` is exactly what lib/eval's toRecord aggregates. */
export function resultRow(key: string, evaluation: CutEvaluation, sessionShare: number): ResultRow {
  const record = toRecord(evaluation);
  return {
    unitKey: key,
    sessionId: evaluation.sessionId,
    cut: evaluation.cut,
    cutReason: evaluation.reason,
    sessionShare,
    policy: policyKeyOf(key),
    prefixTokens: evaluation.prefixTokens,
    window: evaluation.window,
    tokensAfter: evaluation.tokensAfter,
    pruneRate: evaluation.pruneRate,
    noImpact: evaluation.noImpact,
    uncertain: evaluation.verdict.uncertain,
    missingByCategory: JSON.stringify(record.missingByCategory),
    verdict: JSON.stringify(evaluation.verdict),
    error: null,
  };
}

/** A unit whose policy or judge threw: kept (so resume does not retry it forever) and counted as a failure. */
export function failedRow(key: string, sessionId: string, cut: number, cutReason: string, sessionShare: number, message: string): ResultRow {
  return {
    unitKey: key,
    sessionId,
    cut,
    cutReason,
    sessionShare,
    policy: policyKeyOf(key),
    prefixTokens: 0,
    window: 0,
    tokensAfter: 0,
    pruneRate: 0,
    noImpact: false,
    uncertain: false,
    missingByCategory: "{}",
    verdict: "null",
    error: message,
  };
}
