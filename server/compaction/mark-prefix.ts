import type { ContextIndex } from "@/lib/compaction/context/objects";
import type { PolicyResult } from "@/lib/compaction/policies/types";
import type { ActionKind } from "@/lib/compaction/projection/types";
import type { Session } from "@/lib/trace/model";
import type { PartMark, PrefixMark } from "./compaction-api";

/**
 * The fate of every part of the original prefix under one run, for colouring the original column:
 * - a part still in the view keeps the view's action (`keep` when unchanged);
 * - a part missing from the view takes the action of the first target that covers it — its own
 *   function object (or, for a call, its result's object), then `message:<i>`, then its
 *   conversation object; with none of those it was collapsed into the summary (summary policies)
 *   or removed (lineage repair).
 * `target` names the action responsible, so the studio can link the part to its reason.
 */
export function markPrefix(result: PolicyResult, session: Session, index: ContextIndex): PrefixMark[] {
  const actionOf = new Map<string, ActionKind>();
  for (const a of result.actions) if (!actionOf.has(a.target)) actionOf.set(a.target, a.action);
  const inView = new Map<string, ActionKind>();
  for (const message of result.view) {
    for (const part of message.parts) if (part.origin) inView.set(`${part.origin.message}:${part.origin.part}`, part.action ?? "keep");
  }
  const resultOfCall = new Map<string, string>();
  for (const o of index.objects) if (o.kind === "function" && o.call) resultOfCall.set(`${o.call.message}:${o.call.part}`, o.id);

  return session.messages.slice(0, result.cut).map((message, m) => ({
    role: message.role,
    tokens: index.messageTokens[m] ?? 0,
    parts: message.parts.map((_, p): PartMark => {
      const key = `${m}:${p}`;
      const candidates = [index.functionAt.get(key) ?? resultOfCall.get(key), `message:${m}`, index.turnOf[m]];
      const target = candidates.find((t): t is string => t !== undefined && actionOf.has(t));
      const kept = inView.get(key);
      if (kept === "keep") return { action: "keep" };
      if (kept) return target ? { action: kept, target } : { action: kept };
      if (target) return { action: actionOf.get(target)!, target };
      return { action: result.summary !== undefined ? "summarize" : "prune" };
    }),
  }));
}
