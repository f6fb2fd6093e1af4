import type { ViewMessage } from "../../projection/types";
import type { PolicyContext } from "../types";
import type { ResolvedEdit } from "./normalise";

/**
 * Lineage repair of the object tree (seed 000: "repairs parent lineage to the nearest surviving
 * ancestors"). A function object that is still visible after the commit but whose user turn (or
 * the turn holding its call) was folded or pruned as a whole is re-attached to the nearest
 * earlier surviving user turn (`null`: the session root). Call/result pairing itself is repaired
 * by the shared lineage pass; this reports the new parent map for the studio and later rounds.
 */
export interface Reparenting {
  /** The folded or pruned turn the object hung from (its own turn, or the turn of its call). */
  from: string;
  to: string | null;
}

export function reparentSurvivors(ctx: PolicyContext, edits: ResolvedEdit[], view: ViewMessage[]): Record<string, Reparenting> {
  const gone = new Set(edits.filter((e) => e.object.kind === "conversation").map((e) => e.id));
  const map: Record<string, Reparenting> = {};
  if (gone.size === 0) return map;
  const turns = ctx.index.objects.filter((o) => o.kind === "conversation" && o.firstMessage < ctx.cut);
  for (const message of view) {
    for (const part of message.parts) {
      if (part.type !== "tool_result" || !part.objectId) continue;
      const object = ctx.index.byId.get(part.objectId);
      if (!object) continue;
      const callTurn = object.call ? ctx.index.turnOf[object.call.message] : undefined;
      const lost = object.parentId && gone.has(object.parentId) ? object.parentId : callTurn && gone.has(callTurn) ? callTurn : undefined;
      if (!lost) continue;
      const survivor = turns.filter((t) => t.firstMessage <= object.firstMessage && !gone.has(t.id)).at(-1);
      map[object.id] = { from: lost, to: survivor?.id ?? null };
    }
  }
  return map;
}
