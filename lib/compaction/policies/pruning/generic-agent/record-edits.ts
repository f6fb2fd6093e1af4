import type { ContextObject } from "../../../context/objects";
import { partKey, type EditPlan, type PolicyAction } from "../../../projection/types";
import { countPartTokens } from "../../../../tokens/message-tokens";
import type { PolicyContext } from "../../types";
import { GA_RULES, partBody, type GaHistory, type GaRule } from "./history";

/**
 * Turns GA's working history into the shared edit plan and one PolicyAction per edited target:
 * a tool result's function object, a request's conversation object, or `message:<i>` for
 * assistant steps and other connective messages. When several stages touched the same target the
 * action carries the latest stage's rule; eviction and orphan clean-up supersede truncation.
 */
const RULES: Record<GaRule | "stage3-evict" | "stage3-orphan-cleanup", { rule: string; reason: string }> = {
  "stage1-truncate": { rule: "generic-agent/stage1-truncate", reason: "tool output over its Table 1 threshold: head/tail L/2 kept" },
  "stage2-compress": {
    rule: "generic-agent/stage2-compress",
    reason: "tag-level compression of an older message (~800-char windows, working-memory placeholders)",
  },
  "stage3-compress-strict": {
    rule: "generic-agent/stage3-compress-strict",
    reason: "over budget: stricter tag compression, only the newest strictKeepRecent messages exempt",
  },
  "stage3-evict": { rule: "generic-agent/stage3-evict", reason: "over budget: evicted oldest-first (FIFO) until below keepRate of the character budget" },
  "stage3-orphan-cleanup": { rule: "generic-agent/stage3-orphan-cleanup", reason: "orphaned by eviction: its tool call was evicted" },
};
const ORDER = [...GA_RULES, "stage3-evict", "stage3-orphan-cleanup"] as const;
type Stage = (typeof ORDER)[number];

export function recordEdits(ctx: PolicyContext, history: GaHistory, orphans: readonly ContextObject[], plan: EditPlan): PolicyAction[] {
  const byTarget = new Map<string, { stage: Stage; before: number; after: number }>();
  const book = (target: string, stage: Stage, before: number, after: number) => {
    const seen = byTarget.get(target);
    if (!seen) byTarget.set(target, { stage, before, after });
    else
      byTarget.set(target, {
        stage: ORDER.indexOf(stage) > ORDER.indexOf(seen.stage) ? stage : seen.stage,
        before: seen.before + before,
        after: seen.after + after,
      });
  };
  for (const entry of history.entries) {
    const m = entry.message;
    const original = ctx.session.messages[m]!;
    if (entry.evicted) {
      plan.dropMessages.add(m);
      let rest = ctx.index.messageTokens[m]!;
      original.parts.forEach((_, p) => {
        const fn = functionAt(ctx, m, p);
        if (!fn) return;
        rest -= fn.tokens;
        book(fn.id, "stage3-evict", fn.tokens, 0);
      });
      if (original.parts.some((part) => part.type !== "tool_result")) book(messageTarget(ctx, m), "stage3-evict", rest, 0);
      continue;
    }
    entry.rules.forEach((rule, p) => {
      if (!rule) return;
      const part = entry.parts[p]!;
      plan.parts.set(partKey({ message: m, part: p }), { op: "replace", text: partBody(part), action: "truncate" });
      const fn = functionAt(ctx, m, p);
      book(fn?.id ?? messageTarget(ctx, m), rule, fn?.tokens ?? countPartTokens(original.parts[p]!, ctx.tokenizer), countPartTokens(part, ctx.tokenizer));
    });
  }
  for (const orphan of orphans) {
    plan.parts.set(partKey(orphan.part!), { op: "drop" });
    byTarget.set(orphan.id, { stage: "stage3-orphan-cleanup", before: orphan.tokens, after: 0 });
  }
  return [...byTarget].map(([target, { stage, before, after }]) => ({
    target,
    action: stage === "stage3-evict" || stage === "stage3-orphan-cleanup" ? "prune" : "truncate",
    reason: RULES[stage].reason,
    rule: RULES[stage].rule,
    tokensBefore: before,
    tokensAfter: after,
  }));
}

function functionAt(ctx: PolicyContext, m: number, p: number): ContextObject | undefined {
  const id = ctx.index.functionAt.get(`${m}:${p}`);
  return id ? ctx.index.byId.get(id) : undefined;
}

/** A request message is its conversation object; any other message is addressed by index. */
function messageTarget(ctx: PolicyContext, m: number): string {
  const turn = ctx.index.turnOf[m];
  return turn && ctx.index.byId.get(turn)?.firstMessage === m ? turn : `message:${m}`;
}
