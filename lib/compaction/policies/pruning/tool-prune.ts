import { emptyPlan, type PolicyAction } from "../../projection/types";
import { editableObjects } from "../shared/object-edits";
import type { Policy } from "../types";
import { BASELINE_PARAMS, Budget, baselineFires } from "./baseline";
import { NOT_TOOL_OUTPUT, pruneWithCall } from "./object-costs";

/**
 * Seed 000 baseline "Tool-prune" ("greedily removes tool outputs under token pressure"): walks the
 * editable tool results oldest-first and prunes each until the estimated view fits the target.
 * No recovery path and blind to future dependencies by design — it is the reference the
 * dependency-aware policies are measured against. The latest turn is never touched (harness);
 * lineage repair removes each pruned result's call, and the estimate counts it.
 */
export const toolPrunePolicy: Policy = {
  id: "tool-prune",
  family: "seed-000",
  source: "seed 000, Baselines: Tool-prune greedily removes tool outputs under token pressure",
  description: "Prunes tool results oldest-first until the view fits targetRatio of the window (trigger: triggerRatio of the window).",
  params: [...BASELINE_PARAMS],
  fires: baselineFires,
  decide(ctx, params) {
    const plan = emptyPlan();
    const budget = new Budget(ctx, params);
    const actions: PolicyAction[] = [];
    for (const object of editableObjects(ctx)) {
      if (budget.isMet) break;
      if (object.kind !== "function") continue;
      const { action, saved } = pruneWithCall(ctx, plan, object, "tool output pruned oldest-first under token pressure", "tool-prune/greedy-oldest");
      budget.save(saved);
      actions.push(action);
    }
    return budget.report(ctx, { plan, actions, log: [budget.describe(ctx, params), `pruned ${actions.length} tool outputs`] }, NOT_TOOL_OUTPUT);
  },
};
