import type { ContextObject } from "../../context/objects";
import { emptyPlan, type EditPlan, type PolicyAction, type Sidecar } from "../../projection/types";
import { countPartTokens } from "../../../tokens/message-tokens";
import { foldObject, pruneObject } from "../shared/object-edits";
import type { PolicyContext } from "../types";

/**
 * Edits with their full cost, for policies that stop at a token target. `pruneObject` and
 * `foldObject` report the object's own tokens; what else moves with the edit — the tool call that
 * lineage repair removes with a pruned result, the control-plane reminder a fold adds — is counted
 * here, touching only the parts involved (never the whole prefix).
 */

/** Why a policy that edits only tool output stops short of a harness target. */
export const NOT_TOOL_OUTPUT =
  "every tool output outside the protected latest turn is already edited; the rest of the view (system prompt, requests, assistant text, the latest turn) is not tool output";

/** Tokens of the tool call answering a function object (lineage repair removes it with the result). */
export function callTokens(ctx: PolicyContext, object: ContextObject): number {
  if (!object.call) return 0;
  const part = ctx.session.messages[object.call.message]?.parts[object.call.part];
  return part ? countPartTokens(part, ctx.tokenizer) : 0;
}

/** Prunes a function object; `saved` includes its call, which lineage repair drops with it. */
export function pruneWithCall(
  ctx: PolicyContext,
  plan: EditPlan,
  object: ContextObject,
  reason: string,
  rule: string,
): { action: PolicyAction; saved: number } {
  const action = pruneObject(ctx, plan, object, reason, rule);
  return { action, saved: action.tokensBefore + callTokens(ctx, object) };
}

/**
 * Folds an object only when the fold makes the view smaller: the recovery pointer (and, for a
 * function object, the reminder on its request) must cost less than the payload it replaces. A
 * two-line user turn or a short tool result would otherwise grow the view. The fold is rehearsed
 * on a scratch plan and merged only when it pays. `fold` is the harness fold to use (`foldObject`,
 * or a `foldWithPreview` closure).
 */
export function foldIfSmaller(
  ctx: PolicyContext,
  plan: EditPlan,
  object: ContextObject,
  reason: string,
  rule: string,
  fold: typeof foldObject = foldObject,
): { action: PolicyAction; sidecars: Sidecar[]; saved: number } | undefined {
  const scratch = emptyPlan();
  const { action, sidecars } = fold(ctx, scratch, object, reason, rule);
  let reminderTokens = 0;
  for (const texts of scratch.reminders.values()) for (const text of texts) reminderTokens += ctx.tokenizer.count(text);
  const saved = action.tokensBefore - action.tokensAfter - reminderTokens;
  if (saved <= 0) return undefined;
  mergePlan(plan, scratch);
  return { action, sidecars, saved };
}

function mergePlan(into: EditPlan, from: EditPlan): void {
  for (const m of from.dropMessages) into.dropMessages.add(m);
  for (const [key, edit] of from.parts) into.parts.set(key, edit);
  for (const [m, texts] of from.reminders) {
    const list = into.reminders.get(m) ?? [];
    for (const text of texts) if (!list.includes(text)) list.push(text);
    into.reminders.set(m, list);
  }
}
