import type { ContextObject } from "../../context/objects";
import type { EditPlan, PolicyAction, Sidecar } from "../../projection/types";
import { partKey } from "../../projection/types";
import { partText } from "../../tokens/message-tokens";
import { sha256Hex, utf8Bytes } from "../../util/sha256";
import type { PolicyContext } from "../types";
import { maskContent } from "./text-edits";

/**
 * Object-level edits (seed 000's fold / mask / prune) expressed over the shared `EditPlan`. Each
 * returns the action record with tokens before and after, so every policy reports the same way.
 */
export function pruneObject(ctx: PolicyContext, plan: EditPlan, object: ContextObject, reason: string, rule: string): PolicyAction {
  if (object.kind === "function" && object.part) {
    plan.parts.set(partKey(object.part), { op: "drop" });
  } else {
    for (let m = object.firstMessage; m <= Math.min(object.lastMessage, ctx.cut - 1); m++) plan.dropMessages.add(m);
  }
  return { target: object.id, action: "prune", reason, rule, tokensBefore: objectTokens(ctx, object), tokensAfter: 0 };
}

export function maskObject(ctx: PolicyContext, plan: EditPlan, object: ContextObject, reason: string, rule: string): PolicyAction {
  if (object.kind !== "function" || !object.part) throw new Error(`mask applies to function objects, not ${object.id}`);
  const content = partText(ctx.session.messages[object.part.message]!.parts[object.part.part]!);
  const masked = maskContent(content);
  plan.parts.set(partKey(object.part), { op: "replace", text: masked, action: "mask" });
  return { target: object.id, action: "mask", reason, rule, tokensBefore: object.tokens, tokensAfter: ctx.tokenizer.count(masked) };
}

/**
 * Fold: the exact payload goes to a content-addressed sidecar; the view keeps a recovery pointer.
 * For function objects the pointer replaces the result in place (its call stays, so lineage holds)
 * and a control-plane reminder goes on the object's user message; for conversation objects the
 * whole span is replaced by one pointer message on the user request. `hint` replaces the default
 * route text inside the pointer (self-gc passes its semantic route, lib/context/route-hint.ts).
 */
export function foldObject(
  ctx: PolicyContext,
  plan: EditPlan,
  object: ContextObject,
  reason: string,
  rule: string,
  hint?: string,
): { action: PolicyAction; sidecar: Sidecar } {
  const payload = objectPayload(ctx, object);
  const sidecar: Sidecar = { target: object.id, sha256: sha256Hex(payload), bytes: utf8Bytes(payload).length, payload };
  const pointer = foldPointer(object, sidecar, hint ?? routeHint(ctx, object));
  let tokensAfter: number;
  if (object.kind === "function" && object.part) {
    plan.parts.set(partKey(object.part), { op: "replace", text: pointer, action: "fold" });
    tokensAfter = ctx.tokenizer.count(pointer);
    if (object.parentId) {
      const parent = ctx.index.byId.get(object.parentId);
      if (parent) addReminder(plan, parent.firstMessage, `[fold] ${object.id} is in sidecar ${sidecar.sha256.slice(0, 12)} — recover it before quoting or editing it.`);
    }
  } else {
    const last = Math.min(object.lastMessage, ctx.cut - 1);
    for (let m = object.firstMessage + 1; m <= last; m++) plan.dropMessages.add(m);
    const request = ctx.session.messages[object.firstMessage]!;
    request.parts.forEach((_, p) => plan.parts.set(partKey({ message: object.firstMessage, part: p }), p === 0 ? { op: "replace", text: pointer, action: "fold" } : { op: "drop" }));
    tokensAfter = ctx.tokenizer.count(pointer);
  }
  return { action: { target: object.id, action: "fold", reason, rule, tokensBefore: objectTokens(ctx, object), tokensAfter }, sidecar };
}

/** The exact text a fold must be able to restore: the result content, or the serialised span. */
export function objectPayload(ctx: PolicyContext, object: ContextObject): string {
  if (object.kind === "function" && object.part) {
    return partText(ctx.session.messages[object.part.message]!.parts[object.part.part]!);
  }
  const last = Math.min(object.lastMessage, ctx.cut - 1);
  return JSON.stringify(ctx.session.messages.slice(object.firstMessage, last + 1).map((m) => ({ role: m.role, parts: m.parts })));
}

export function foldPointer(object: ContextObject, sidecar: Sidecar, hint: string): string {
  return `<folded id="${object.id}" sidecar="sha256:${sidecar.sha256}" bytes="${sidecar.bytes}">${hint}</folded>`;
}

/** Compact semantic routing (seed 000, recovery-routing loss): what the folded thing was about. */
function routeHint(ctx: PolicyContext, object: ContextObject): string {
  const anchors = object.anchors.filter((a) => a.kind !== "number").slice(0, 4).map((a) => a.value);
  if (object.kind === "function") {
    const call = object.call ? ctx.session.messages[object.call.message]?.parts[object.call.part] : undefined;
    const args = call && call.type === "tool_call" ? call.arguments.replace(/\s+/g, " ").slice(0, 120) : "";
    return `${object.tool} ${args}${anchors.length ? ` — mentions ${anchors.join(", ")}` : ""}`.trim();
  }
  const request = partText(ctx.session.messages[object.firstMessage]!.parts[0] ?? { type: "text", text: "" });
  return `user request: ${request.replace(/\s+/g, " ").slice(0, 160)}${anchors.length ? ` — mentions ${anchors.join(", ")}` : ""}`;
}

function addReminder(plan: EditPlan, message: number, text: string): void {
  const list = plan.reminders.get(message) ?? [];
  if (!list.includes(text)) list.push(text);
  plan.reminders.set(message, list);
}

/** Tokens of an object inside the prefix (a conversation object may be cut by the cut point). */
export function objectTokens(ctx: PolicyContext, object: ContextObject): number {
  if (object.kind === "function") return object.tokens;
  const last = Math.min(object.lastMessage, ctx.cut - 1);
  return ctx.index.prefixTokens[last + 1]! - ctx.index.prefixTokens[object.firstMessage]!;
}

/** Objects whose content lies inside the prefix and outside the protected latest turn. */
export function editableObjects(ctx: PolicyContext): ContextObject[] {
  return ctx.index.objects.filter((o) => {
    if (o.firstMessage >= ctx.cut) return false;
    if (o.kind === "function") return !ctx.protect.messages.has(o.firstMessage);
    const last = Math.min(o.lastMessage, ctx.cut - 1);
    for (let m = o.firstMessage; m <= last; m++) if (ctx.protect.messages.has(m)) return false;
    return true;
  });
}
