import { reasonCode } from "../../planner/render-plan";
import { mergeReminders } from "../../projection/pointers";
import { emptyPlan, partKey, type EditPlan, type PolicyAction, type Sidecar } from "../../projection/types";
import { foldObject, maskObject, pruneObject } from "../shared/object-edits";
import type { PolicyContext } from "../types";
import type { ResolvedEdit } from "./normalise";

/**
 * Turns resolved edits into the shared `EditPlan` through the shared object edits, exactly as any
 * policy's edits are made (fold → sidecar + the harness's pointer and reminder, a folded span's
 * generated call body to a sidecar of its own; mask → head/tail hints; prune → removed). Rehearsal
 * and commit build the projection with this one function, so what was rehearsed is what commits.
 *
 * One thing is self-gc's own: a pruned result takes its own call with it (the index's positional
 * call ref), so the prune is one explicit action rather than a prune plus a separate lineage-repair
 * fix. The fold reminders of each message are merged here as the harness merges them at commit,
 * so rehearsal counts the tokens the committed view will have.
 */
export interface Projection {
  plan: EditPlan;
  actions: PolicyAction[];
  sidecars: Sidecar[];
}

export function buildProjection(ctx: PolicyContext, edits: ResolvedEdit[]): Projection {
  const plan = emptyPlan();
  const actions: PolicyAction[] = [];
  const sidecars: Sidecar[] = [];
  for (const edit of edits) {
    const rule = `self-gc/${reasonCode(edit.reason)}`;
    const { object } = edit;
    if (edit.action === "fold") {
      const folded = foldObject(ctx, plan, object, edit.reason, rule);
      actions.push(folded.action);
      sidecars.push(...folded.sidecars);
    } else if (edit.action === "mask") {
      actions.push(maskObject(ctx, plan, object, edit.reason, rule));
    } else {
      actions.push(pruneObject(ctx, plan, object, edit.reason, rule));
      if (object.kind === "function" && object.call) plan.parts.set(partKey(object.call), { op: "drop" });
    }
  }
  for (const [message, texts] of plan.reminders) plan.reminders.set(message, mergeReminders(texts));
  return { plan, actions, sidecars };
}

/** A deep copy: `materializeView` edits the plan it is given (protected edits, lineage repair). */
export function cloneEditPlan(plan: EditPlan): EditPlan {
  return {
    dropMessages: new Set(plan.dropMessages),
    parts: new Map(plan.parts),
    reminders: new Map([...plan.reminders].map(([m, texts]) => [m, [...texts]])),
    ...(plan.summary ? { summary: { ...plan.summary } } : {}),
  };
}
