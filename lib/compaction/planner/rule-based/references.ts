import { extractAnchors } from "../../context/anchors";
import { partText } from "../../../tokens/message-tokens";
import type { PlannerInput } from "../types";

/**
 * Reference recency (seed 000, planner contract: "decide future dependencies" from what the prefix
 * shows; a garbage collector's reachability read as recency of use): a tool result stays referenced
 * while the values it introduced — ids, urls, paths (the shared anchors) — keep reappearing in what the agent or
 * the user wrote afterwards (assistant text, tool-call arguments, user messages). A result last
 * referenced long ago is cold; one the agent keeps returning to is a hub of the task, whatever its
 * age. A value belongs to the result that first showed it (one the user or the agent wrote first
 * belongs to no result), and later tool output repeating it is not a reference. Only the prefix is
 * read. One pass over it.
 */
export interface References {
  /** Function object id → the last message (in the prefix) that referred to a value it introduced. */
  lastUse: Map<string, number>;
}

/** Numbers are not values here (too common to tell apart), as for live handles. */
function values(text: string, anchors = extractAnchors(text)): string[] {
  return anchors.filter((a) => a.kind !== "number").map((a) => a.value);
}

export function findReferences(input: PlannerInput): References {
  const { session, index, cut } = input;
  const owner = new Map<string, string>();
  const lastUse = new Map<string, number>();
  for (let m = 0; m < cut; m++) {
    const message = session.messages[m]!;
    const referred = new Set<string>();
    message.parts.forEach((part, p) => {
      if (part.type === "tool_result") {
        const id = index.functionAt.get(`${m}:${p}`);
        if (!id) return;
        for (const v of values(part.content, index.byId.get(id)?.anchors)) if (!owner.has(v)) owner.set(v, id);
        return;
      }
      const text = part.type === "tool_call" ? part.arguments : partText(part);
      for (const v of values(text)) {
        const id = owner.get(v);
        if (id) referred.add(id);
        else owner.set(v, "");
      }
    });
    for (const id of referred) lastUse.set(id, m);
  }
  return { lastUse };
}
