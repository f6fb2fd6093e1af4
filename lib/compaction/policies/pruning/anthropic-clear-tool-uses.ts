import type { ContextObject } from "../../context/objects";
import { normaliseToolName } from "../../context/tool-names";
import { emptyPlan, partKey, type PartRef, type PolicyAction } from "../../projection/types";
import { countPartTokens } from "../../../tokens/message-tokens";
import { boolParam, numParam, strParam } from "../params";
import { closestFitting, withTargetReport } from "../shared/target";
import type { Policy, PolicyContext, PolicyParams } from "../types";

/**
 * Anthropic API context editing, strategy `clear_tool_uses_20250919` (beta
 * `context-management-2025-06-27`; notes/compaction-harnesses.md §6b [doc]): once the input exceeds
 * the trigger (default 100,000 input tokens), the oldest tool results are replaced with placeholder
 * text, keeping the `keep` (default 3) most recent tool use/result pairs; `exclude_tools` are never
 * cleared; `clear_tool_inputs` (default false) also clears the tool_use inputs; with
 * `clear_at_least` set, the strategy is not applied at all unless it clears at least that many
 * tokens. The API does not document its placeholder text; LangChain's client-side mirror
 * (`ClearToolUsesEdit`, notes §8) uses "[cleared]", which is the default here.
 *
 * Replay: the default trigger assumes Claude's 200K window; with `scaleToWindow` it is scaled to the
 * replay window (100K of 200K → half the window), so it fires at the replay's 90% cut points. The
 * API's trigger is part of the mechanism, so `decide` applies it too and clears nothing below it.
 * Cleared results are recorded as prune: the placeholder keeps the pair valid but nothing of the
 * content.
 *
 * Harness target (matched budgets): the trigger steps aside (the harness decided to compact here)
 * and `keep` is derived from the target — the largest number of newest uses whose older uses,
 * cleared oldest-first, bring the view to the target. Excluded tools, the protected latest turn and
 * clear_at_least still apply; when they leave the view over the target the report says so.
 */
export const anthropicClearToolUsesPolicy: Policy = {
  id: "anthropic-clear-tool-uses",
  family: "harness",
  source: "Anthropic API context editing clear_tool_uses_20250919 (notes/compaction-harnesses.md §6b; LangChain ClearToolUsesEdit §8)",
  description:
    "Above the input-token trigger, replaces all but the 3 most recent tool results with a placeholder (exclude_tools, clear_at_least, clear_tool_inputs as in the API).",
  params: [
    { name: "triggerTokens", default: 100_000, description: "trigger.input_tokens: clear once the input exceeds this (API default 100,000)." },
    { name: "scaleToWindow", default: true, description: "Scale triggerTokens by window / referenceWindow so the trigger keeps its share of the window." },
    { name: "referenceWindow", default: 200_000, description: "The window the API default trigger was set for (Claude's 200K)." },
    { name: "keep", default: 3, description: "keep.tool_uses: most recent tool use/result pairs never cleared (API default 3)." },
    {
      name: "clearAtLeast",
      default: 0,
      description: "clear_at_least.input_tokens: skip the edit unless it clears this many tokens (0 = none, the API default).",
    },
    { name: "excludeTools", default: "", description: "exclude_tools: comma-separated tool names never cleared (raw or normalised names)." },
    { name: "clearToolInputs", default: false, description: "clear_tool_inputs: also replace the cleared tool calls' inputs (API default false)." },
    { name: "placeholder", default: "[cleared]", description: "Text a cleared result (and input) is replaced with (LangChain's mirror default)." },
  ],
  fires: (ctx, params) => ctx.prefixTokens > triggerTokens(ctx.window, params),
  decide(ctx, params) {
    const trigger = triggerTokens(ctx.window, params);
    if (ctx.targetTokens === undefined && ctx.prefixTokens <= trigger) {
      return { plan: emptyPlan(), actions: [], log: [`trigger not reached: input ${ctx.prefixTokens} ≤ ${Math.round(trigger)} tokens; nothing cleared`] };
    }
    const uses = ctx.index.objects.filter((o) => o.kind === "function" && o.part && o.firstMessage < ctx.cut);
    const excluded = new Set(
      strParam(params, "excludeTools")
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean)
        .map(normaliseToolName),
    );
    const clears = uses.map((use) => clearOf(ctx, params, excluded, use));
    const keep = ctx.targetTokens === undefined ? numParam(params, "keep") : keepForTarget(ctx.prefixTokens, clears, ctx.targetTokens);
    const candidates = clears.slice(0, Math.max(0, uses.length - keep));
    const plan = emptyPlan();
    const actions: PolicyAction[] = [];
    let cleared = 0;
    let retained = 0;
    for (const clear of candidates) {
      if (clear.kind === "excluded") continue;
      if (clear.kind === "protected") {
        retained++;
        continue;
      }
      for (const edit of clear.edits) plan.parts.set(partKey(edit.ref), { op: "replace", text: edit.text, action: "prune" });
      cleared += clear.before - clear.after;
      actions.push({
        target: clear.use.id,
        action: "prune",
        reason: `older than the ${keep} most recent tool uses: cleared to placeholder`,
        rule: "anthropic-clear-tool-uses/clear-oldest",
        tokensBefore: clear.before,
        tokensAfter: clear.after,
      });
    }
    const fired =
      ctx.prefixTokens > trigger
        ? `trigger fired: input ${ctx.prefixTokens} > ${Math.round(trigger)} tokens`
        : `harness target set: the trigger (${Math.round(trigger)} tokens) steps aside`;
    const log = [`${fired}; ${uses.length} tool uses in the prefix, keeping the newest ${Math.min(uses.length, keep)}`];
    if (retained > 0) log.push(`${retained} older tool uses sit in the protected latest turn and stay`);
    const atLeast = numParam(params, "clearAtLeast");
    if (atLeast > 0 && cleared < atLeast) {
      const skipped = { plan: emptyPlan(), actions: [], log: [...log, `clear_at_least not met (${cleared} < ${atLeast} tokens): strategy not applied`] };
      return withTargetReport(
        ctx,
        skipped,
        ctx.prefixTokens,
        `keep = ${keep} tool uses`,
        `clear_at_least (${atLeast} tokens) refuses an edit that clears only ${cleared}`,
      );
    }
    log.push(`cleared ${actions.length} tool uses (~${cleared} tokens)`);
    return withTargetReport(
      ctx,
      { plan, actions, log },
      ctx.prefixTokens - cleared,
      `keep = ${keep} tool uses`,
      "the uses left are excluded tools or sit in the protected latest turn, and the rest of the view is not tool output",
    );
  },
};

/** What clearing one tool use does: its edits and tokens, or why it cannot be cleared. */
type Clear =
  | { kind: "excluded"; use: ContextObject; before: 0; after: 0 }
  | { kind: "protected"; use: ContextObject; before: 0; after: 0 }
  | { kind: "clear"; use: ContextObject; edits: { ref: PartRef; text: string }[]; before: number; after: number };

function clearOf(ctx: PolicyContext, params: PolicyParams, excluded: ReadonlySet<string>, use: ContextObject): Clear {
  if (isExcluded(use, excluded)) return { kind: "excluded", use, before: 0, after: 0 };
  if (ctx.protect.messages.has(use.part!.message)) return { kind: "protected", use, before: 0, after: 0 };
  const placeholder = strParam(params, "placeholder");
  const placeholderTokens = ctx.tokenizer.count(placeholder);
  const edits = [{ ref: use.part!, text: placeholder }];
  let before = use.tokens;
  let after = placeholderTokens;
  const call = use.call ? ctx.session.messages[use.call.message]!.parts[use.call.part] : undefined;
  if (boolParam(params, "clearToolInputs") && call?.type === "tool_call" && !ctx.protect.messages.has(use.call!.message)) {
    edits.push({ ref: use.call!, text: placeholder });
    before += countPartTokens(call, ctx.tokenizer);
    after += ctx.tokenizer.count(call.name) + placeholderTokens;
  }
  return { kind: "clear", use, edits, before, after };
}

/**
 * Under a harness target, `keep` (the newest tool uses never cleared) is the largest count whose
 * clearing of every older use brings the view to the target — the API's own order (oldest first).
 */
function keepForTarget(prefixTokens: number, clears: readonly Clear[], target: number): number {
  // saved[i]: tokens cleared when the i oldest uses are cleared.
  const saved = [0];
  for (const c of clears) saved.push(saved.at(-1)! + (c.before - c.after));
  const n = clears.length;
  return closestFitting(0, n, (keep) => prefixTokens - saved[n - keep]!, target);
}

/** The trigger in tokens for this window: the API default, scaled to the window when asked. */
export function triggerTokens(window: number, params: PolicyParams): number {
  const tokens = numParam(params, "triggerTokens");
  return boolParam(params, "scaleToWindow") ? (tokens * window) / numParam(params, "referenceWindow") : tokens;
}

function isExcluded(use: ContextObject, excluded: ReadonlySet<string>): boolean {
  if (excluded.size === 0) return false;
  return excluded.has(use.tool ?? "") || excluded.has(normaliseToolName(use.rawTool ?? ""));
}
