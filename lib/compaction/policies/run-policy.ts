import type { ContextIndex } from "../context/objects";
import type { LlmClient } from "../../llm/types";
import { materializeView } from "../projection/materialize";
import { emptyPlan } from "../projection/types";
import { DEFAULT_POINTER_STYLE, mergeReminders, type PointerStyle } from "../projection/pointers";
import { protectedSet, type ProtectOptions } from "../projection/protect";
import { capToTokens } from "../summarizer/cap";
import { extractiveSummarizer } from "../summarizer/extractive";
import type { Summarizer } from "../summarizer/types";
import type { Tokenizer } from "../../tokens/tokenizer";
import type { Session } from "../../trace/model";
import { resolveParams } from "./params";
import type { Policy, PolicyContext, PolicyParams, PolicyResult } from "./types";

export const DEFAULT_SUMMARY_CAP = 2_000;

export interface RunPolicyInput {
  session: Session;
  index: ContextIndex;
  cut: number;
  window: number;
  tokenizer: Tokenizer;
  params?: PolicyParams;
  summaryCap?: number;
  summarizer?: Summarizer;
  protect?: ProtectOptions;
  /** Passed to policies that call a model (self-gc's LLM planner). */
  llm?: LlmClient;
  /** Pointer style of every fold (harness setting, default `semantic`). */
  pointers?: PointerStyle;
  /** Target view size in tokens (matched budgets); see `PolicyContext.targetTokens`. */
  targetTokens?: number;
}

/**
 * Runs one policy at one cut and materialises its decision. This is the single path every caller
 * uses (CLI, studio, evaluation, tests), so the shared guarantees hold for every policy: the latest
 * turn is untouched, tool results keep their calls, summaries are capped, and token accounting is
 * identical. The harness, not the policy, writes every fold pointer (`pointers`), merges the fold
 * reminders of each message, and passes the run's target view size (`targetTokens`).
 */
export async function runPolicy(policy: Policy, input: RunPolicyInput): Promise<PolicyResult> {
  const { session, index, cut, window, tokenizer } = input;
  if (!Number.isInteger(cut) || cut < 1 || cut > session.messages.length) {
    throw new RangeError(`cut ${cut} is outside 1..${session.messages.length}`);
  }
  const params = resolveParams(policy, input.params ?? {});
  const protect = protectedSet(session.messages, index, cut, input.protect);
  const summaryCap = input.summaryCap ?? DEFAULT_SUMMARY_CAP;
  const context: PolicyContext = {
    session,
    index,
    cut,
    window,
    tokenizer,
    protect,
    prefixTokens: index.prefixTokens[cut]!,
    summaryCap,
    summarizer: input.summarizer ?? extractiveSummarizer,
    ...(input.llm ? { llm: input.llm } : {}),
    pointers: input.pointers ?? DEFAULT_POINTER_STYLE,
    ...(input.targetTokens !== undefined ? { targetTokens: input.targetTokens } : {}),
  };
  // A target the prefix already meets means no compaction, whichever policy runs (a matched
  // reference that stayed pending): the harness leaves the prefix unchanged without asking.
  const met = input.targetTokens !== undefined && input.targetTokens >= context.prefixTokens;
  const decision = met
    ? { plan: emptyPlan(), actions: [], log: [`target ${input.targetTokens} tokens already met by the ${context.prefixTokens}-token prefix: no compaction`] }
    : await policy.decide(context, params);
  for (const [message, texts] of decision.plan.reminders) decision.plan.reminders.set(message, mergeReminders(texts));
  const log = [...decision.log];
  if (decision.plan.summary) {
    const capped = capToTokens(decision.plan.summary.text, summaryCap, (t) => tokenizer.count(t));
    if (capped !== decision.plan.summary.text) log.push(`summary cut to the ${summaryCap}-token cap`);
    decision.plan.summary = { ...decision.plan.summary, text: capped };
  }
  const materialized = materializeView(session.messages, cut, index, decision.plan, protect, tokenizer);
  const actions = [...decision.actions];
  for (const fix of materialized.lineageFixes) {
    actions.push({
      target: index.functionAt.get(`${fix.ref.message}:${fix.ref.part}`) ?? `message:${fix.ref.message}`,
      action: "prune",
      reason: `lineage repair: ${fix.reason}`,
      rule: "harness/lineage-repair",
      tokensBefore: 0,
      tokensAfter: 0,
    });
  }
  const tokensBefore = context.prefixTokens;
  return {
    policy: policy.id,
    params,
    sessionId: session.id,
    cut,
    window,
    tokensBefore,
    tokensAfter: materialized.tokens,
    pruneRate: tokensBefore > 0 ? 1 - materialized.tokens / tokensBefore : 0,
    ...(input.targetTokens !== undefined ? { targetTokens: input.targetTokens } : {}),
    actions,
    rejected: [...(decision.rejected ?? []), ...materialized.rejected],
    ...(decision.plan.summary ? { summary: decision.plan.summary.text } : {}),
    ...(decision.tailStart !== undefined ? { tailStart: decision.tailStart } : {}),
    view: materialized.view,
    sidecars: decision.sidecars ?? [],
    log,
    ...(decision.details ? { details: decision.details } : {}),
  };
}
