import { checkAddedDependencies, currentLabels, deriveHumanVerdict, type DependencyLabel, type HumanVerdict, type LabelHistory, type SpanProblem } from "@/lib/review";
import type { Db } from "../db/client";
import { loadCutContext } from "./cut-context";
import { loadCutChecks } from "./cut-checks";

/**
 * Human no-impact verdicts of a dependency queue: for every reviewer who completed a cut (a current
 * `cut_review`), one verdict per policy of the run, derived by lib/review from their dependency
 * labels checked against that policy's view (the judge's own checkView). Spans that no longer
 * match the session are returned as problems, never silently counted. The judge's candidates come
 * checked from the per-cut cache (cut-checks); only a reviewer's added spans need the full context.
 */
export async function humanVerdicts(db: Db, runId: string, history: LabelHistory): Promise<{ verdicts: HumanVerdict[]; problems: SpanProblem[] }> {
  const current = currentLabels(history);
  const dependencyLabels = current.filter((l): l is DependencyLabel => l.kind === "dependency");
  const verdicts: HumanVerdict[] = [];
  const problems: SpanProblem[] = [];
  for (const review of current) {
    if (review.kind !== "cut_review") continue;
    const checks = await loadCutChecks(db, runId, review.ref.sessionId, review.ref.cut);
    if (!checks) continue;
    const mine = dependencyLabels.filter((l) => l.reviewer === review.reviewer && l.ref.sessionId === review.ref.sessionId && l.ref.cut === review.ref.cut);
    const adds = mine.some((l) => l.decision === "add" && !l.retracted);
    const context = adds ? await loadCutContext(db, runId, review.ref.sessionId, review.ref.cut) : null;
    if (adds && !context) continue;
    let first = true;
    for (const [policy, candidates] of checks.policies) {
      const result = context?.results.get(policy);
      const added = context && result ? checkAddedDependencies({ session: context.session, index: context.index, result, labels: mine }) : { checked: [], problems: [] };
      if (first) problems.push(...added.problems);
      first = false;
      verdicts.push(deriveHumanVerdict({ reviewer: review.reviewer, ref: review.ref, policy, labels: mine, candidates, added: added.checked }));
    }
  }
  return { verdicts, problems };
}
