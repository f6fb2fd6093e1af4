import { emptyPlan, type PolicyAction, type Sidecar } from "../../projection/types";
import { numParam } from "../params";
import { editableObjects } from "../shared/object-edits";
import type { Policy } from "../types";
import { BASELINE_PARAMS, Budget, baselineFires } from "./baseline";
import { foldIfSmaller, pruneWithCall } from "./object-costs";

/**
 * Seed 000 baseline "Hybrid" ("combines chronological turn folding with tool-output pruning"), as a
 * layered hand-written policy:
 * 1. fold the oldest user turns chronologically (sidecars, as oldest-turn does), but never the
 *    `keepRecentTurns` newest turns of the prefix (the protected latest turn counts as one);
 * 2. if the view is still over the target, prune tool outputs oldest-first in what was not folded —
 *    the recent turns, and the unprotected steps of a long latest run.
 * Both passes stop as soon as the estimated view fits the target.
 */
export const hybridPolicy: Policy = {
  id: "hybrid",
  family: "seed-000",
  source: "seed 000, Baselines: Hybrid combines chronological turn folding with tool-output pruning",
  description:
    "Folds the oldest user turns except the newest keepRecentTurns, then prunes the remaining tool outputs oldest-first until the view fits targetRatio of the window.",
  params: [
    ...BASELINE_PARAMS,
    { name: "keepRecentTurns", default: 2, description: "Newest user turns never folded (their tool outputs may be pruned); includes the latest turn." },
  ],
  fires: baselineFires,
  decide(ctx, params) {
    const plan = emptyPlan();
    const budget = new Budget(ctx, params);
    const actions: PolicyAction[] = [];
    const sidecars: Sidecar[] = [];
    const editable = editableObjects(ctx);
    const recent = recentTurnIds(ctx.index.objects, ctx.cut, numParam(params, "keepRecentTurns"));
    const folded = new Set<string>();
    for (const object of editable) {
      if (budget.isMet) break;
      if (object.kind !== "conversation" || recent.has(object.id)) continue;
      const done = foldIfSmaller(ctx, plan, object, "old user turn folded chronologically", "hybrid/fold-oldest-turn");
      if (!done) continue;
      budget.save(done.saved);
      actions.push(done.action);
      sidecars.push(...done.sidecars);
      folded.add(object.id);
    }
    const foldCount = actions.length;
    for (const object of editable) {
      if (budget.isMet) break;
      if (object.kind !== "function" || (object.parentId !== undefined && folded.has(object.parentId))) continue;
      const { action, saved } = pruneWithCall(ctx, plan, object, "tool output pruned oldest-first after turn folding", "hybrid/prune-tool-output");
      budget.save(saved);
      actions.push(action);
    }
    const log = [
      budget.describe(ctx, params),
      `folded ${foldCount} old turns (newest ${recent.size} kept unfolded); pruned ${actions.length - foldCount} tool outputs`,
    ];
    return budget.report(
      ctx,
      { plan, actions, sidecars, log },
      `every old turn outside the newest ${recent.size} is folded and every other unprotected tool output pruned; what is left is the protected latest turn and the recent turns' own text`,
    );
  },
};

/** Ids of the newest `count` user turns that start inside the prefix. */
function recentTurnIds(objects: readonly { id: string; kind: string; firstMessage: number }[], cut: number, count: number): Set<string> {
  const ids = new Set<string>();
  for (let i = objects.length - 1; i >= 0 && ids.size < count; i--) {
    const o = objects[i]!;
    if (o.kind === "conversation" && o.firstMessage < cut) ids.add(o.id);
  }
  return ids;
}
