import { checkAddedDependencies, deriveHumanVerdict, type DependencyLabel, type HumanVerdict, type ReviewLabel, type SpanProblem } from "@/lib/review";
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
export async function humanVerdicts(db: Db, runId: string, current: readonly ReviewLabel[]): Promise<{ verdicts: HumanVerdict[]; problems: SpanProblem[] }> {
  // Grouped once by reviewer and cut: filtering all dependency labels per reviewed cut was quadratic.
  const key = (reviewer: string, ref: { sessionId: string; cut: number }) => `${reviewer}\u0000${ref.sessionId}@${ref.cut}`;
  const dependencyLabels = new Map<string, DependencyLabel[]>();
  for (const l of current) {
    if (l.kind !== "dependency") continue;
    const k = key(l.reviewer, l.ref);
    const list = dependencyLabels.get(k);
    if (list) list.push(l);
    else dependencyLabels.set(k, [l]);
  }
  const verdicts: HumanVerdict[] = [];
  const problems: SpanProblem[] = [];
  let done = 0;
  for (const review of current) {
    if (review.kind !== "cut_review") continue;
    // Cached checks resolve at once, so this loop would hold the event loop for every reviewed cut
    // of the queue: it steps aside now and then so the saves and opens sharing the process go on.
    if (++done % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
    const checks = await loadCutChecks(db, runId, review.ref.sessionId, review.ref.cut);
    if (!checks) continue;
    const mine = dependencyLabels.get(key(review.reviewer, review.ref)) ?? [];
    const adds = mine.some((l) => l.decision === "add" && !l.retracted);
    const context = adds ? await loadCutContext(db, runId, review.ref.sessionId, review.ref.cut) : null;
    if (adds && !context) continue;
    let first = true;
    for (const [policy, candidates] of checks.policies) {
      const result = context?.results.get(policy);
      const added =
        context && result ? checkAddedDependencies({ session: context.session, index: context.index, result, labels: mine }) : { checked: [], problems: [] };
      if (first) problems.push(...added.problems);
      first = false;
      verdicts.push(deriveHumanVerdict({ reviewer: review.reviewer, ref: review.ref, policy, labels: mine, candidates, added: added.checked }));
    }
  }
  return { verdicts, problems };
}
