import type { Message } from "../../trace/model";
import { partKey, type EditPlan, type PartRef } from "./types";

/** A change lineage repair made so the view stays valid: calls and results travel together. */
export interface LineageFix {
  ref: PartRef;
  reason: string;
}

/**
 * Keeps every tool result with its call (seed 000: lineage repair). A call whose result is gone
 * is dropped too (providers reject a tool call without a result), and a result whose call is gone
 * is dropped (it would be an orphan). Protected parts are never dropped: if one side is protected,
 * the edit that removed the other side is undone instead.
 *
 * Undoing a dropped message brings back its other parts too (an assistant message holding parallel
 * calls, one of which is answered in the protected turn): those may be calls whose results are gone
 * or results whose call is gone, so the pairs are checked again until nothing changes. Each pass
 * only revives whole messages dropped by the plan or drops single parts, so it ends.
 */
export function repairLineage(prefix: Message[], plan: EditPlan, isProtected: (m: number) => boolean): LineageFix[] {
  // Some formats reuse call ids (tau-bench): a result answers the nearest earlier call with its id.
  const calls: { callId: string; ref: PartRef; results: PartRef[] }[] = [];
  const latestCall = new Map<string, number>();
  prefix.forEach((message, m) =>
    message.parts.forEach((part, p) => {
      if (part.type === "tool_call") {
        latestCall.set(part.id, calls.length);
        calls.push({ callId: part.id, ref: { message: m, part: p }, results: [] });
      } else if (part.type === "tool_result" && !part.orphan) {
        const owner = latestCall.get(part.callId);
        if (owner !== undefined) calls[owner]!.results.push({ message: m, part: p });
      }
    }),
  );
  const gone = (ref: PartRef) => plan.dropMessages.has(ref.message) || plan.parts.get(partKey(ref))?.op === "drop";
  const fixes: LineageFix[] = [];
  for (let revived = true; revived;) {
    revived = false;
    for (const { callId, ref: call, results: linked } of calls) {
      const callGone = gone(call);
      const resultsGone = linked.length > 0 && linked.every(gone);
      if (callGone && linked.some((r) => !gone(r))) {
        if (linked.some((r) => isProtected(r.message))) {
          revived = restore(plan, call) || revived;
          continue;
        }
        for (const r of linked) if (!gone(r)) dropPart(plan, r, fixes, `its call ${callId} was removed`);
      } else if (!callGone && resultsGone) {
        if (isProtected(call.message)) {
          for (const r of linked) revived = restore(plan, r) || revived;
          continue;
        }
        dropPart(plan, call, fixes, `its result was removed`);
      }
    }
  }
  return fixes;
}

function dropPart(plan: EditPlan, ref: PartRef, fixes: LineageFix[], reason: string): void {
  plan.parts.set(partKey(ref), { op: "drop" });
  fixes.push({ ref, reason });
}

/** Undoes the removal of `ref`; true when that brought back a whole dropped message. */
function restore(plan: EditPlan, ref: PartRef): boolean {
  plan.parts.delete(partKey(ref));
  return plan.dropMessages.delete(ref.message);
}
