import type { ContextObject } from "../../context/objects";
import { CALL_BODY_MIN_CHARS, callBodyPointer } from "../../projection/pointers";
import { partKey, type EditPlan, type Sidecar } from "../../projection/types";
import { sha256Hex, utf8Bytes } from "../../../util/sha256";
import type { PolicyContext } from "../types";

export interface FoldedCallBody {
  sidecar: Sidecar;
  tokensBefore: number;
  tokensAfter: number;
}

/**
 * Folding a tool span folds its generated body too, for every policy (seed 000: `function:<tool>:n` objects are
 * tool-level *spans*; "a generated report body may need to be folded so a future turn can quote or
 * revise it exactly"). A Write / Edit / heredoc call carries the body it generated in its
 * arguments; leaving those in view while folding the two-line result would keep the bulk.
 *
 * The exact call part goes to its own content-addressed sidecar (target: the same object),
 * serialised as a one-part span `[{ role, parts: [call] }]` like a whole-turn fold.
 * In view, JSON arguments stay valid JSON with every short leaf intact (the path, the flags) and
 * each long string leaf replaced by a pointer naming the sidecar and the body's opening words;
 * non-JSON arguments become one pointer quoting their opening characters. Either way the call
 * keeps its id and name, so lineage and provider normalisation hold.
 */
export function foldCallBody(ctx: PolicyContext, plan: EditPlan, object: ContextObject): FoldedCallBody | undefined {
  if (object.kind !== "function" || !object.call) return undefined;
  const call = ctx.session.messages[object.call.message]?.parts[object.call.part];
  if (!call || call.type !== "tool_call" || call.arguments.length < CALL_BODY_MIN_CHARS) return undefined;
  if (ctx.protect.messages.has(object.call.message)) return undefined;
  // Serialised like a span fold (`[{ role, parts }]`, objectPayload): the exact call part, id and
  // name included, so restoring it puts back the very part the view replaced.
  const payload = JSON.stringify([{ role: ctx.session.messages[object.call.message]!.role, parts: [call] }]);
  const sidecar: Sidecar = { target: object.id, sha256: sha256Hex(payload), bytes: utf8Bytes(payload).length, payload };
  const pointer = (body: string) => callBodyPointer(object, sidecar, body, ctx.pointers);
  const replaced = replaceLongLeaves(call.arguments, pointer);
  if (replaced === undefined || replaced.length >= call.arguments.length) return undefined;
  plan.parts.set(partKey(object.call), { op: "replace", text: replaced, action: "fold" });
  return { sidecar, tokensBefore: ctx.tokenizer.count(call.arguments), tokensAfter: ctx.tokenizer.count(replaced) };
}

/** JSON: long string leaves become pointers; anything else: the whole text becomes one pointer. */
function replaceLongLeaves(args: string, pointer: (body: string) => string): string | undefined {
  const trimmed = args.trim();
  if (!trimmed.startsWith("{")) return pointer(args);
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return pointer(args);
  }
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (v.length < LONG_LEAF_CHARS) return v;
      changed = true;
      return pointer(v);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(value);
  return changed ? JSON.stringify(out) : undefined;
}

/** A string leaf at least this long is a body, not a locator or flag. */
const LONG_LEAF_CHARS = 400;
