import type { ContextObject } from "../../context/objects";
import type { GcPlan, PlanActionKind, Position } from "../../planner/plan-types";
import type { PolicyContext } from "../types";

/**
 * Target resolution and normalisation, the first half of seed 000's rehearsal ("resolves targets,
 * drops invalid or cut-turn edits, normalizes overlapping actions"). Every edit that does not
 * survive is reported with the reason, so the studio can show what the harness refused.
 */
export interface ResolvedEdit {
  id: string;
  object: ContextObject;
  action: PlanActionKind;
  reason: string;
  position: Position;
}

export interface DroppedEdit {
  target: string;
  /** `edit` when the shared materialiser refused a raw edit it could not attribute to an action. */
  action: PlanActionKind | "edit";
  reason: string;
  position?: Position;
}

/** fold keeps the most (exact recovery), mask keeps hints, prune keeps nothing. */
const CONSERVATISM: Record<PlanActionKind, number> = { fold: 3, mask: 2, prune: 1 };

export function resolveEdits(ctx: PolicyContext, plan: GcPlan): { edits: ResolvedEdit[]; dropped: DroppedEdit[] } {
  const dropped: DroppedEdit[] = [];
  const byTarget = new Map<string, ResolvedEdit>();
  for (const action of plan.actions) {
    for (const target of action.targets) {
      const drop = (reason: string) => dropped.push({ target: target.id, action: action.action, reason, position: target.position });
      const object = ctx.index.byId.get(target.id);
      if (!object) {
        drop("unknown object id: the prefix has no such object");
        continue;
      }
      if (object.firstMessage >= ctx.cut) {
        drop("the object lies after the cut, outside the planner's prefix");
        continue;
      }
      if (touchesProtected(ctx, object)) {
        drop("touches the protected latest turn (mandatory last-turn retention)");
        continue;
      }
      if (action.action === "mask" && object.kind !== "function") {
        drop("mask applies to tool-level objects; mask the turn's function objects instead");
        continue;
      }
      const edit: ResolvedEdit = { id: target.id, object, action: action.action, reason: action.reason, position: target.position };
      const existing = byTarget.get(target.id);
      if (!existing) byTarget.set(target.id, edit);
      else {
        const [keep, lose] = CONSERVATISM[edit.action] > CONSERVATISM[existing.action] ? [edit, existing] : [existing, edit];
        byTarget.set(target.id, keep);
        dropped.push({
          target: lose.id,
          action: lose.action,
          reason: `conflicts with ${keep.action} on the same target; the more conservative ${keep.action} is kept`,
          position: lose.position,
        });
      }
    }
  }
  return dropRedundant([...byTarget.values()], dropped);
}

/** A function object inside a conversation that is folded or pruned as a whole needs no action. */
function dropRedundant(edits: ResolvedEdit[], dropped: DroppedEdit[]): { edits: ResolvedEdit[]; dropped: DroppedEdit[] } {
  const whole = new Map<string, PlanActionKind>();
  for (const e of edits) if (e.object.kind === "conversation") whole.set(e.id, e.action);
  const kept: ResolvedEdit[] = [];
  for (const e of edits) {
    const parentAction = e.object.kind === "function" && e.object.parentId ? whole.get(e.object.parentId) : undefined;
    if (parentAction)
      dropped.push({
        target: e.id,
        action: e.action,
        reason: `redundant: inside ${e.object.parentId}, which is ${parentAction === "fold" ? "folded" : "pruned"} as a whole`,
        position: e.position,
      });
    else kept.push(e);
  }
  kept.sort((a, b) => a.object.firstMessage - b.object.firstMessage || (a.object.part?.part ?? -1) - (b.object.part?.part ?? -1));
  return { edits: kept, dropped };
}

export function touchesProtected(ctx: PolicyContext, object: ContextObject): boolean {
  if (object.kind === "function") {
    return ctx.protect.messages.has(object.firstMessage) || (object.call !== undefined && ctx.protect.messages.has(object.call.message));
  }
  const last = Math.min(object.lastMessage, ctx.cut - 1);
  for (let m = object.firstMessage; m <= last; m++) if (ctx.protect.messages.has(m)) return true;
  return false;
}
