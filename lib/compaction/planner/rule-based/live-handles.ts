import { extractAnchors, type Anchor } from "../../context/anchors";
import { partText } from "../../../tokens/message-tokens";
import type { PlannerInput } from "../types";

/**
 * Live handles (seed 000, Table 5 "Locator and handle loss"): ids, URLs, paths and job ids that a
 * tool result introduced into the prefix (their first appearance) and that a later use-site needs
 * again — a later tool call's arguments, a later user request, or anything in the protected latest
 * turn. The result that introduced such a handle is the only place its origin is visible, so it
 * stays. Numbers are not handles (too common to tell apart). One pass over the prefix.
 *
 * The same pass credits user turns: a turn whose messages introduced a handle that is used after
 * the turn ended is still referenced, and folding it whole would hide where the handle came from.
 */
export interface LiveHandles {
  /** Function object id → the live handles it introduced. */
  byObject: Map<string, string[]>;
  /** Conversation object id → handles introduced inside the turn and used after it. */
  byTurn: Map<string, string[]>;
}

export function findLiveHandles(input: PlannerInput): LiveHandles {
  const { session, index, cut, protect } = input;
  const introducedBy = new Map<string, string | null>();
  const introducedIn = new Map<string, string>();
  const lastUse = new Map<string, number>();
  let turn: string | undefined;
  const introduce = (anchors: Anchor[], owner: string | null) => {
    for (const a of anchors) {
      if (a.kind === "number" || introducedBy.has(a.value)) continue;
      introducedBy.set(a.value, owner);
      if (turn) introducedIn.set(a.value, turn);
    }
  };
  const use = (anchors: Anchor[], m: number) => {
    for (const a of anchors) if (a.kind !== "number") lastUse.set(a.value, m);
  };
  for (let m = 0; m < cut; m++) {
    const message = session.messages[m]!;
    const isProtected = protect.messages.has(m);
    turn = index.turnOf[m];
    message.parts.forEach((part, p) => {
      if (part.type === "tool_result") {
        const id = index.functionAt.get(`${m}:${p}`);
        const anchors = id ? (index.byId.get(id)?.anchors ?? []) : extractAnchors(part.content);
        introduce(anchors, id ?? null);
        if (isProtected) use(anchors, m);
        return;
      }
      const anchors = extractAnchors(part.type === "tool_call" ? part.arguments : partText(part));
      introduce(anchors, null);
      if (part.type === "tool_call" || message.role === "user" || isProtected) use(anchors, m);
    });
  }
  const byObject = new Map<string, string[]>();
  const byTurn = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, value: string) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const [value, owner] of introducedBy) {
    const usedAt = lastUse.get(value);
    if (usedAt === undefined) continue;
    const object = owner ? index.byId.get(owner) : undefined;
    if (object && usedAt > object.firstMessage) add(byObject, object.id, value);
    const turnId = introducedIn.get(value);
    const turnObject = turnId ? index.byId.get(turnId) : undefined;
    if (turnObject && usedAt > turnObject.lastMessage) add(byTurn, turnObject.id, value);
  }
  return { byObject, byTurn };
}
