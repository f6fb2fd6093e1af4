import { semanticRoute } from "../../context/route-hint";
import { reasonCode } from "../../planner/render-plan";
import { emptyPlan, partKey, type EditPlan, type PolicyAction, type Sidecar } from "../../projection/types";
import { foldObject, maskObject, pruneObject } from "../shared/object-edits";
import { foldCallBody } from "./fold-call-body";
import { mergeFoldReminders } from "./merge-reminders";
import type { PolicyContext } from "../types";
import type { ResolvedEdit } from "./normalise";

/**
 * Turns resolved edits into the shared `EditPlan` through the shared object edits (seed 000:
 * fold → sidecar + recovery pointer carrying a semantic route (the call's path / url / args, the
 * locators inside; lib/context/route-hint.ts) and the call's generated body to a sidecar of its
 * own (fold-call-body.ts), mask → head/tail hints, prune → removed). Rehearsal and
 * commit build the projection with this one function, so what was rehearsed is what commits.
 *
 * Three harness duties are done here:
 * - a pruned result takes its own call with it (the index's positional call ref), so the prune is
 *   one explicit action rather than a prune plus a separate lineage-repair fix;
 * - a fold reminder whose object has no user turn of its own (a preamble tool result) goes to the
 *   nearest user request after it, so recovery stays routable (Table 7, recovery-routing loss);
 * - the fold reminders of one user message are merged into one (merge-reminders.ts).
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
      const folded = foldObject(ctx, plan, object, edit.reason, rule, semanticRoute(ctx.session, ctx.index, object));
      const body = foldCallBody(ctx, plan, object);
      actions.push(body ? { ...folded.action, tokensBefore: folded.action.tokensBefore + body.tokensBefore, tokensAfter: folded.action.tokensAfter + body.tokensAfter } : folded.action);
      sidecars.push(folded.sidecar, ...(body ? [body.sidecar] : []));
      if (object.kind === "function" && !object.parentId) routeOrphanReminder(ctx, plan, object.firstMessage, object.id, folded.sidecar.sha256);
    } else if (edit.action === "mask") {
      actions.push(maskObject(ctx, plan, object, edit.reason, rule));
    } else {
      actions.push(pruneObject(ctx, plan, object, edit.reason, rule));
      if (object.kind === "function" && object.call) plan.parts.set(partKey(object.call), { op: "drop" });
    }
  }
  mergeFoldReminders(plan);
  return { plan, actions, sidecars };
}

function routeOrphanReminder(ctx: PolicyContext, plan: EditPlan, from: number, id: string, sha: string): void {
  const next = ctx.index.objects.find((o) => o.kind === "conversation" && o.firstMessage > from && o.firstMessage < ctx.cut);
  const at = next?.firstMessage ?? (ctx.protect.latestRequest >= 0 ? ctx.protect.latestRequest : undefined);
  if (at === undefined) return;
  const list = plan.reminders.get(at) ?? [];
  list.push(`[fold] ${id} is in sidecar ${sha.slice(0, 12)} — recover it before quoting or editing it.`);
  plan.reminders.set(at, list);
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
