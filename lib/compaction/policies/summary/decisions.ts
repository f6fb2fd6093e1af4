import { emptyPlan, partKey, type EditPlan, type PolicyAction } from "../../projection/types";
import type { PolicyContext, PolicyDecision } from "../types";

/**
 * The decision pieces the summary policies share: the no-op, kept-part truncations, and the one
 * `summarize` action per collapsed object.
 */

/** An edit to a part the policy keeps (a truncated user message or tool output), or its removal. */
export interface KeptEdit {
  message: number;
  part: number;
  target: string;
  /** Replacement text; null drops the part. */
  text: string | null;
  tokensBefore: number;
  tokensAfter: number;
  rule: string;
  reason: string;
}

/** A decision that changes nothing, with the reason in the log. */
export function keepAsIs(log: string[], reason: string, details?: Record<string, unknown>): PolicyDecision {
  return { plan: emptyPlan(), actions: [], log: [...log, reason], ...(details ? { details } : {}) };
}

/** Records kept-part edits on the plan (replace as `truncate`, or drop) and returns their actions. */
export function applyKeptEdits(plan: EditPlan, edits: readonly KeptEdit[]): PolicyAction[] {
  return edits.map((e) => {
    plan.parts.set(partKey(e), e.text === null ? { op: "drop" } : { op: "replace", text: e.text, action: "truncate" });
    return { target: e.target, action: "truncate", reason: e.reason, rule: e.rule, tokensBefore: e.tokensBefore, tokensAfter: e.tokensAfter };
  });
}

/** A decision with the kept-part edits only (nothing to summarize). */
export function editsOnly(ctx: PolicyContext, edits: readonly KeptEdit[], log: string[]): PolicyDecision {
  const plan = emptyPlan();
  const actions = applyKeptEdits(
    plan,
    edits.filter((e) => !ctx.protect.messages.has(e.message)),
  );
  return { plan, actions, log };
}

/**
 * One `summarize` action per collapsed object: each tool output is its function object; the rest
 * of a message belongs to its conversation object (or `message:<i>` in the preamble). The token
 * counts partition the collapsed tokens, so they add up.
 */
export function collapseActions(ctx: PolicyContext, collapsed: readonly number[], rule: string, reason: string): PolicyAction[] {
  const byTarget = new Map<string, PolicyAction>();
  const add = (target: string, tokens: number) => {
    const action = byTarget.get(target);
    if (action) action.tokensBefore += tokens;
    else byTarget.set(target, { target, action: "summarize", reason, rule, tokensBefore: tokens, tokensAfter: 0 });
  };
  for (const m of collapsed) {
    let rest = ctx.index.messageTokens[m]!;
    ctx.session.messages[m]!.parts.forEach((part, p) => {
      if (part.type !== "tool_result") return;
      const id = ctx.index.functionAt.get(`${m}:${p}`);
      const object = id ? ctx.index.byId.get(id) : undefined;
      if (!id || !object) return;
      add(id, object.tokens);
      rest -= object.tokens;
    });
    add(ctx.index.turnOf[m] ?? `message:${m}`, Math.max(0, rest));
  }
  return [...byTarget.values()];
}
