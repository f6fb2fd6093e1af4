import type { AbLabel, CutReviewLabel, DependencyLabel, FailureCategoryLabel } from "../../../lib/review";

/** Label factories for the review tests: valid version-1 labels, overridable field by field. */
const meta = (labelId: string, reviewer: string, minute = 0) => ({
  labelId,
  version: 1,
  supersedes: null,
  reviewer,
  createdAt: new Date(Date.UTC(2026, 10, 23, 10, minute)).toISOString(),
});

export const ref = { sessionId: "s", cut: 10 };

export function confirm(labelId: string, reviewer: string, value: string, extra: Partial<DependencyLabel> = {}): DependencyLabel {
  return { kind: "dependency", ...meta(labelId, reviewer), ref, decision: "confirm", dependencyId: "dep-1", value, type: "locator_handle", ...extra };
}

export function cutReview(labelId: string, reviewer: string, extra: Partial<CutReviewLabel> = {}): CutReviewLabel {
  return { kind: "cut_review", ...meta(labelId, reviewer), ref, ...extra };
}

export function failure(labelId: string, reviewer: string, extra: Partial<FailureCategoryLabel> = {}): FailureCategoryLabel {
  return { kind: "failure_category", ...meta(labelId, reviewer), ref, policy: "tool-prune", category: "live_state", culpritId: "function:exec:3", ...extra };
}

export function ab(labelId: string, reviewer: string, extra: Partial<AbLabel> = {}): AbLabel {
  return {
    kind: "ab",
    ...meta(labelId, reviewer),
    ref,
    sides: { A: "self-gc", B: "oldest-turn", swapped: false },
    verdict: "A_better",
    rationale: "A keeps the job id.",
    confidence: 0.8,
    ...extra,
  };
}
