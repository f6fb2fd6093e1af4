import type { ContextIndex } from "../context/objects";
import type { Sidecar } from "../projection/types";
import type { Session } from "../trace/model";
import { decodeArguments } from "./part-texts";

/**
 * Recovery routing (seed 000, Table 7: "folded content exists in sidecar storage, but the active
 * view lacks enough semantic route information to know when or what to recover").
 *
 * Crisp rule: a sidecar is *routed* when at least one view text that names it — contains its
 * digest (at least the first 12 hex digits: fold pointers, fold reminders and spill markers all
 * do) — also contains a route key of the folded object:
 * - a url, path or id anchor of the object;
 * - for a function object, the first 40 characters (whitespace collapsed) of a string argument of
 *   its tool call that has at least 6 characters, or of the raw arguments;
 * - for a conversation object, the first 40 characters of its request text.
 * The tool name alone is not a route: "a browser_snapshot was folded" does not say which page, so
 * a later turn asking about that page cannot know this pointer is the one to recover.
 *
 * Routes are per object (`routeTarget`, see `routeTargetFor`): a whole-turn fold whose pointer
 * quotes the user's request routes to the request and the turn's narrative, but not to each tool
 * output inside the turn — a later step that needs the path a `read` returned cannot tell from
 * "Fix the failing build…" that this is the pointer to recover, unless the pointer also names that
 * read (its path or arguments). This is seed 000's finding that chronological turn folds "hide
 * concrete grounding such as document identifiers, ports, row values" while tool-level folds keep
 * a route to them.
 */
export function isRouted(sidecar: Sidecar, pointers: readonly string[], session: Session, index: ContextIndex, routeTarget: string = sidecar.target): boolean {
  if (pointers.length === 0) return false;
  const keys = routeKeys(routeTarget, session, index);
  if (keys.length === 0) return false;
  return pointers.some((text) => {
    const flat = collapse(text);
    return keys.some((key) => flat.includes(key));
  });
}

/** The route keys of an object (exported for tests and the studio's explanation). */
export function routeKeys(target: string, session: Session, index: ContextIndex): string[] {
  const object = index.byId.get(target);
  if (!object) return [];
  const keys = object.anchors.filter((a) => a.kind !== "number").map((a) => a.value);
  const add = (text: string | undefined) => {
    const key = collapse(text ?? "").trim().slice(0, 40);
    if (key.length >= 6) keys.push(key);
  };
  if (object.kind === "function" && object.call) {
    const call = session.messages[object.call.message]?.parts[object.call.part];
    if (call?.type === "tool_call") {
      add(call.arguments.replace(/^\s*\{\s*\}\s*$/, ""));
      for (const leaf of (decodeArguments(call.arguments) ?? "").split("\n")) add(leaf);
    }
  } else if (object.kind === "conversation") {
    const request = session.messages[object.firstMessage];
    for (const part of request?.parts ?? []) if (part.type === "text") add(part.text);
  }
  return keys;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ");
}

/**
 * The object whose route keys must be visible for a dependency found in `sidecar`: the sidecar's
 * own object, except when a conversation (whole-turn) sidecar holds the value only inside tool
 * calls or results — then the function object of the first such occurrence inside the span.
 */
export function routeTargetFor(occurrences: readonly { message: number; part: number }[], sidecar: Sidecar, session: Session, index: ContextIndex): string {
  const object = index.byId.get(sidecar.target);
  if (!object || object.kind !== "conversation") return sidecar.target;
  let functionTarget: string | undefined;
  for (const { message, part } of occurrences) {
    if (message < object.firstMessage || message > object.lastMessage) continue;
    const type = session.messages[message]?.parts[part]?.type;
    if (type !== "tool_result" && type !== "tool_call") return sidecar.target;
    functionTarget ??= index.functionAt.get(`${message}:${part}`) ?? callOwner(index, message, part);
  }
  return functionTarget ?? sidecar.target;
}

function callOwner(index: ContextIndex, message: number, part: number): string | undefined {
  return index.objects.find((o) => o.call?.message === message && o.call.part === part)?.id;
}
