import type { ContextObject } from "../../context/objects";
import type { EditPlan, PolicyAction, Sidecar } from "../../projection/types";
import { partKey } from "../../projection/types";
import { partText } from "../../../tokens/message-tokens";
import { foldPointer, foldReminder, previewBeforePointer } from "../../projection/pointers";
import { sha256Hex, utf8Bytes } from "../../../util/sha256";
import { foldCallBody } from "./fold-call-body";
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
 * Fold: the exact payload goes to a content-addressed sidecar; the view keeps the harness's
 * recovery pointer (lib/compaction/projection/pointers.ts: its text depends on the object and `ctx.pointers`
 * only, whichever policy folds). For function objects the pointer replaces the result in place
 * (its call stays, so lineage holds), a call that generated a long body (a Write's content) has
 * that body folded to a sidecar of its own (fold-call-body.ts), and a control-plane reminder goes
 * on the object's user message — or, for a tool result before the first user request, on the next
 * request, so the fold is named where the agent reads. For conversation objects the whole span is
 * replaced by one pointer message on the user request.
 */
export function foldObject(
  ctx: PolicyContext,
  plan: EditPlan,
  object: ContextObject,
  reason: string,
  rule: string,
): { action: PolicyAction; sidecars: Sidecar[] } {
  const payload = objectPayload(ctx, object);
  const sidecar: Sidecar = { target: object.id, sha256: sha256Hex(payload), bytes: utf8Bytes(payload).length, payload };
  const pointer = foldPointer(ctx.session, ctx.index, object, sidecar, ctx.pointers);
  let tokensBefore = objectTokens(ctx, object);
  let tokensAfter = ctx.tokenizer.count(pointer);
  const sidecars = [sidecar];
  if (object.kind === "function" && object.part) {
    plan.parts.set(partKey(object.part), { op: "replace", text: pointer, action: "fold" });
    const reminderAt = object.parentId ? ctx.index.byId.get(object.parentId)?.firstMessage : nextRequest(ctx, object.firstMessage);
    if (reminderAt !== undefined) addReminder(plan, reminderAt, foldReminder(object.id, sidecar.sha256));
    const body = foldCallBody(ctx, plan, object);
    if (body) {
      sidecars.push(body.sidecar);
      tokensBefore += body.tokensBefore;
      tokensAfter += body.tokensAfter;
    }
  } else {
    const last = Math.min(object.lastMessage, ctx.cut - 1);
    for (let m = object.firstMessage + 1; m <= last; m++) plan.dropMessages.add(m);
    const request = ctx.session.messages[object.firstMessage]!;
    request.parts.forEach((_, p) =>
      plan.parts.set(partKey({ message: object.firstMessage, part: p }), p === 0 ? { op: "replace", text: pointer, action: "fold" } : { op: "drop" }),
    );
  }
  return { action: { target: object.id, action: "fold", reason, rule, tokensBefore, tokensAfter }, sidecars };
}

/**
 * A fold that keeps a preview (LangChain Deep Agents' large-result offloading): exactly
 * `foldObject` — the payload to its sidecar, the harness's pointer and reminder — with the first
 * `lines` lines of the tool result kept in view before the pointer (`previewBeforePointer`, the
 * harness's text for every policy). Whole-turn folds have no preview: the span is one pointer.
 */
export function foldWithPreview(
  ctx: PolicyContext,
  plan: EditPlan,
  object: ContextObject,
  lines: number,
  reason: string,
  rule: string,
): { action: PolicyAction; sidecars: Sidecar[] } {
  const folded = foldObject(ctx, plan, object, reason, rule);
  if (object.kind !== "function" || !object.part || lines <= 0) return folded;
  const key = partKey(object.part);
  const edit = plan.parts.get(key);
  if (!edit || edit.op !== "replace") return folded;
  const text = previewBeforePointer(objectPayload(ctx, object), edit.text, lines);
  plan.parts.set(key, { op: "replace", text, action: "fold" });
  const tokensAfter = folded.action.tokensAfter - ctx.tokenizer.count(edit.text) + ctx.tokenizer.count(text);
  return { action: { ...folded.action, tokensAfter }, sidecars: folded.sidecars };
}

/** The first user request after message `from` inside the prefix (else the latest request), if any. */
function nextRequest(ctx: PolicyContext, from: number): number | undefined {
  const next = ctx.index.objects.find((o) => o.kind === "conversation" && o.firstMessage > from && o.firstMessage < ctx.cut);
  if (next) return next.firstMessage;
  return ctx.protect.latestRequest >= 0 ? ctx.protect.latestRequest : undefined;
}

/** The exact text a fold must be able to restore: the result content, or the serialised span. */
export function objectPayload(ctx: PolicyContext, object: ContextObject): string {
  if (object.kind === "function" && object.part) {
    return partText(ctx.session.messages[object.part.message]!.parts[object.part.part]!);
  }
  const last = Math.min(object.lastMessage, ctx.cut - 1);
  return JSON.stringify(ctx.session.messages.slice(object.firstMessage, last + 1).map((m) => ({ role: m.role, parts: m.parts })));
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
