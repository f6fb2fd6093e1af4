import { FAILURE_CATEGORY_IDS, type FailureCategory } from "../../scenario/failure-categories";
import { verdictKey, type HumanVerdict } from "../human-verdict";
import { VIEW_VERDICTS, type ReviewLabel, type ViewVerdict } from "../label-schema";
import { cutKey } from "../queue/items";
import { itemIdForLabel } from "../queue/progress";
import type { Rating } from "./inter-reviewer";

/**
 * Turns current labels into per-item ratings for `interReviewerAgreement`, one extractor per kind
 * of judgement, each with its category list. Only current (latest, unretracted) labels should be
 * passed: a revised label counts once, as revised.
 */

/** The human no-impact verdicts of cut × policy (true = no impact). */
export function verdictRatings(verdicts: readonly HumanVerdict[]): Rating<boolean>[] {
  return verdicts.map((v) => ({ unit: verdictKey(v.sessionId, v.cut, v.policy), reviewer: v.reviewer, value: v.noImpact }));
}
export const VERDICT_CATEGORIES: readonly boolean[] = [true, false];

/** Confirm / reject decisions on the judge's candidates (unit: cut + candidate value). */
export function decisionRatings(labels: readonly ReviewLabel[]): Rating<"confirm" | "reject">[] {
  return labels.flatMap((l) =>
    l.kind === "dependency" && !l.retracted && l.decision !== "add" ? [{ unit: `${cutKey(l.ref)}:${l.value}`, reviewer: l.reviewer, value: l.decision }] : [],
  );
}
export const DECISION_CATEGORIES = ["confirm", "reject"] as const;

/** Failure categories of impacted cut × policy items. */
export function failureRatings(labels: readonly ReviewLabel[]): Rating<FailureCategory>[] {
  return labels.flatMap((l) => (l.kind === "failure_category" && !l.retracted ? [{ unit: itemIdForLabel(l)!, reviewer: l.reviewer, value: l.category }] : []));
}
export const FAILURE_RATING_CATEGORIES: readonly FailureCategory[] = FAILURE_CATEGORY_IDS;

/**
 * A/B answers mapped from sides back to policies, so reviewers who saw the same pair are compared on
 * what they preferred: `first` / `second` are the pair's policies in sorted order.
 */
export function abRatings(labels: readonly ReviewLabel[]): Rating<AbPreference>[] {
  return labels.flatMap((l) =>
    l.kind === "ab" && !l.retracted ? [{ unit: itemIdForLabel(l)!, reviewer: l.reviewer, value: preferenceOf(l.verdict, l.sides.A, l.sides.B) }] : [],
  );
}
export type AbPreference = "first" | "second" | "tie";
export const AB_PREFERENCES: readonly AbPreference[] = ["first", "second", "tie"];

/** Which of the sorted pair a side verdict preferred. */
export function preferenceOf(verdict: "A_better" | "B_better" | "tie", a: string, b: string): AbPreference {
  if (verdict === "tie") return "tie";
  const preferred = verdict === "A_better" ? a : b;
  return preferred === [a, b].sort()[0] ? "first" : "second";
}

/** Blind verdicts on one view of a cut (calibration queues: gold labels and people's alike). */
export function viewVerdictRatings(labels: readonly ReviewLabel[]): Rating<ViewVerdict>[] {
  return labels.flatMap((l) => (l.kind === "view_verdict" && !l.retracted ? [{ unit: itemIdForLabel(l)!, reviewer: l.reviewer, value: l.verdict }] : []));
}
export const VIEW_VERDICT_CATEGORIES: readonly ViewVerdict[] = VIEW_VERDICTS;
