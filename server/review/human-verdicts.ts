import { checkView } from "@/lib/eval/check-view";
import { checkAddedDependencies, currentLabels, deriveHumanVerdict, type DependencyLabel, type HumanVerdict, type LabelHistory, type SpanProblem } from "@/lib/review";
import type { Db } from "../db/client";
import { loadCutContext } from "./cut-context";

/**
 * Human no-impact verdicts of a dependency queue: for every reviewer who completed a cut (a current
 * `cut_review`), one verdict per policy of the run, derived by lib/review from their dependency
 * labels checked against that policy's view (the judge's own checkView). Spans that no longer
 * match the session are returned as problems, never silently counted.
 */
export async function humanVerdicts(db: Db, runId: string, history: LabelHistory): Promise<{ verdicts: HumanVerdict[]; problems: SpanProblem[] }> {
  const current = currentLabels(history);
  const dependencyLabels = current.filter((l): l is DependencyLabel => l.kind === "dependency");
  const verdicts: HumanVerdict[] = [];
  const problems: SpanProblem[] = [];
  for (const review of current) {
    if (review.kind !== "cut_review") continue;
    const context = await loadCutContext(db, runId, review.ref.sessionId, review.ref.cut);
    if (!context) continue;
    const mine = dependencyLabels.filter((l) => l.reviewer === review.reviewer && l.ref.sessionId === review.ref.sessionId && l.ref.cut === review.ref.cut);
    for (const [policy, result] of context.results) {
      const candidates = checkView({ session: context.session, index: context.index, dependencies: context.candidates, result });
      const added = checkAddedDependencies({ session: context.session, index: context.index, result, labels: mine });
      if (policy === context.results.keys().next().value) problems.push(...added.problems);
      verdicts.push(deriveHumanVerdict({ reviewer: review.reviewer, ref: review.ref, policy, labels: mine, candidates, added: added.checked }));
    }
  }
  return { verdicts, problems };
}
