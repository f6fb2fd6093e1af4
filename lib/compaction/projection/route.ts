import { partText } from "../../tokens/message-tokens";
import type { Session } from "../../trace/model";
import type { ContextIndex, ContextObject } from "../context/objects";

/**
 * Compact semantic routing for a fold pointer (seed 000, Table 7 "Recovery-routing loss": the
 * active view must say "when or what to recover", not only that something was folded). A route
 * names what the folded object was about, the way a later turn would ask for it:
 * - a tool result: the tool and the leaves of its call's arguments (the path it read, the URL it
 *   fetched, the command it ran, the id it looked up), then the locators its output introduced;
 * - a whole user turn: the request's opening words, then the subject of each tool call inside the
 *   turn (its leading arguments, up to the first distinctive one) (a whole-turn pointer that only quotes the request hides which files and pages the turn
 *   touched — seed 000's "chronological fold hides concrete grounding").
 * Bounded: every piece is shortened and the whole route is capped, so a pointer stays small.
 */
export interface RouteOptions {
  /** Characters kept of each argument leaf or request (default 100). */
  leafChars?: number;
  /** Argument leaves named per tool call (default 3). */
  leaves?: number;
  /**
   * Name more leaves (up to 3) until one has at least this many characters: `search(IAH, SFO,
   * 2024-05-19)` rather than `search(IAH)`, which names no flight search in particular.
   */
  distinctLeaf?: number;
  /** Locators (urls, paths, ids) named from the output (default 6). */
  anchors?: number;
  /** Tool calls named inside a whole-turn route (default 8). */
  turnCalls?: number;
  /** Cap of the whole route in characters (default 600). */
  maxChars?: number;
}

export function semanticRoute(session: Session, index: ContextIndex, object: ContextObject, options: RouteOptions = {}): string {
  const leafChars = options.leafChars ?? 100;
  const maxChars = options.maxChars ?? 600;
  const anchors = object.anchors
    .filter((a) => a.kind !== "number")
    .slice(0, options.anchors ?? 6)
    .map((a) => shorten(a.value, leafChars));
  const mentions = anchors.length ? ` — mentions ${anchors.join(", ")}` : "";
  if (object.kind === "function") {
    return cap(`${callRoute(session, object, options)}${mentions}`, maxChars);
  }
  const request = session.messages[object.firstMessage]?.parts.map(partText).join(" ") ?? "";
  const calls = index.objects
    .filter((o) => o.kind === "function" && o.parentId === object.id)
    .slice(0, options.turnCalls ?? 8)
    .map((o) => callRoute(session, o, { ...options, leaves: 1, distinctLeaf: 6 }));
  const inside = calls.length ? `; tools: ${calls.join("; ")}` : "";
  return cap(`user request: ${shorten(request, leafChars * 1.6)}${inside}${mentions}`, maxChars);
}

/** `Read(/src/app.ts)`, `Bash(npm test -- --grep auth)`: the tool and its argument leaves. */
export function callRoute(session: Session, object: ContextObject, options: RouteOptions = {}): string {
  const call = object.call ? session.messages[object.call.message]?.parts[object.call.part] : undefined;
  const tool = object.rawTool ?? object.tool ?? "tool";
  if (!call || call.type !== "tool_call") return tool;
  const all = argumentLeaves(call.arguments)
    .map((leaf) => leaf.replace(/\s+/g, " ").trim())
    .filter((leaf) => leaf.length >= 2);
  let count = options.leaves ?? 3;
  if (options.distinctLeaf !== undefined) {
    const first = all.findIndex((leaf) => leaf.length >= options.distinctLeaf!);
    count = Math.max(count, Math.min(3, first + 1));
  }
  const leaves = all.slice(0, count).map((leaf) => shorten(leaf, options.leafChars ?? 100));
  return `${tool}(${leaves.join(", ")})`;
}

/** String and number leaves of JSON arguments in order, or the raw text when it is not JSON. */
function argumentLeaves(args: string): string[] {
  const trimmed = args.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return trimmed ? [trimmed] : [];
  try {
    const out: string[] = [];
    collect(JSON.parse(trimmed), out);
    return out;
  } catch {
    return [trimmed];
  }
}

function collect(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" || typeof value === "boolean") out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collect(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) collect(item, out);
}

function shorten(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= chars ? flat : `${flat.slice(0, Math.floor(chars))}…`;
}

function cap(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)}…`;
}
