import { emptyPlan, type Sidecar } from "../../projection/types";
import { capToTokens } from "../../summarizer/cap";
import { MESSAGE_OVERHEAD_TOKENS } from "../../../tokens/message-tokens";
import { runPretrim, trimItemsFrom, type PretrimResult, type PretrimStep } from "../pretrim/types";
import type { PolicyContext, PolicyDecision } from "../types";
import { applyKeptEdits, collapseActions, editsOnly, keepAsIs, type KeptEdit } from "./decisions";
import { latestTurnStart, preambleSystem } from "./timeline";

export { keepAsIs, type KeptEdit } from "./decisions";

/** One compaction in seed 001's shared shape: a split point, a summary, a preserved tail. */
export interface SummarySpec {
  /** The split point: first original message of the preserved tail. */
  tailStart: number;
  /** The tail-start pointer to report, when the strategy defines it differently (seed 001 table). */
  pointer?: number;
  /** Where the summary message goes (default: the split point); never inside the latest turn. */
  summaryAt?: number;
  /** Messages before the split kept as-is anyway (preserved user messages, a kept head). */
  keep?: ReadonlySet<number>;
  /** Messages the summarizer reads before pre-trim (default: the collapsed ones). */
  input?: readonly number[];
  pretrim: readonly PretrimStep[];
  /** The harness prompt's gist, in Tracefold's words. */
  instructions: string;
  /** Turns the summarizer's text into the summary message (a harness's summary prefix). */
  wrap?: (summary: string) => string;
  /** An assistant reply right after the summary (Gemini CLI's acknowledgement). */
  reply?: string;
  /** Edits to kept parts, recorded as `truncate` actions. */
  keptEdits?: readonly KeptEdit[];
  /** Payloads spilled outside the summarizer-input pre-trim (a harness pre-trim over the whole history). */
  sidecars?: readonly Sidecar[];
  /** Rule id and reason recorded on every collapsed object. */
  rule: string;
  reason: string;
  log: string[];
  /** When the result would be larger than the prefix. Default: keep the prefix as is. */
  onInflation?: (projected: number, pretrim: PretrimResult, log: string[]) => PolicyDecision;
}

/**
 * Collapses everything before the split point (except the preamble's system messages, the
 * protected latest turn and `keep`) into one summary message, the way every seed 001 strategy and
 * summarizing harness does. The summarizer reads the pre-trimmed input with `maxTokens` = the
 * summary cap (less the wrapper). One `summarize` action per collapsed object; a compaction that
 * would not shrink the prefix is refused (Gemini CLI's inflation check, applied to all).
 */
export async function compactWithSummary(ctx: PolicyContext, spec: SummarySpec): Promise<PolicyDecision> {
  const log = [...spec.log];
  const { tailStart, collapsed, collapsedTokens } = collapsedMessages(ctx, spec.tailStart, spec.keep);
  if (tailStart < spec.tailStart) log.push(`split point moved from message ${spec.tailStart} to ${tailStart}: the latest turn is never split`);
  if (collapsed.length === 0) {
    const reason = `nothing before the split point (message ${tailStart}) to collapse`;
    if (!spec.keptEdits?.length) return keepAsIs(log, `${reason}: kept as is`);
    return { ...editsOnly(ctx, spec.keptEdits, [...log, `${reason}: only the truncations apply`]), sidecars: [...(spec.sidecars ?? [])] };
  }

  const pretrim = runPretrim(trimItemsFrom(ctx.session.messages, spec.input ?? collapsed, ctx.index), spec.pretrim, ctx.tokenizer);
  log.push(...pretrim.log);
  const count = (t: string) => ctx.tokenizer.count(t);
  const wrapTokens = spec.wrap ? count(spec.wrap("")) : 0;
  const raw = await ctx.summarizer.summarize({
    messages: pretrim.items.map((i) => i.message),
    instructions: spec.instructions,
    maxTokens: Math.max(1, ctx.summaryCap - wrapTokens),
    countTokens: count,
  });
  if (!raw.trim()) return keepAsIs(log, `summarizer ${ctx.summarizer.id} returned an empty summary: nothing compacted`);
  const text = capToTokens(spec.wrap ? spec.wrap(raw) : raw, ctx.summaryCap, count);

  let at = Math.min(spec.summaryAt ?? tailStart, ctx.cut);
  if (ctx.protect.latestRequest >= 0 && at > ctx.protect.latestRequest) at = ctx.protect.latestRequest;
  const keptEdits = (spec.keptEdits ?? []).filter((e) => !ctx.protect.messages.has(e.message));
  const editSavings = keptEdits.reduce((sum, e) => sum + e.tokensBefore - e.tokensAfter, 0);
  const summaryTokens = MESSAGE_OVERHEAD_TOKENS + count(text) + (spec.reply ? MESSAGE_OVERHEAD_TOKENS + count(spec.reply) : 0);
  const projected = ctx.prefixTokens - collapsedTokens - editSavings + summaryTokens;
  if (projected > ctx.prefixTokens) {
    const why = `the summary (${summaryTokens} tokens) would grow the context from ${ctx.prefixTokens} to ${projected} tokens`;
    return spec.onInflation ? spec.onInflation(projected, pretrim, [...log, why]) : keepAsIs(log, `${why}: kept as is`);
  }

  const plan = emptyPlan();
  for (const m of collapsed) plan.dropMessages.add(m);
  plan.summary = { text, at, ...(spec.reply ? { reply: spec.reply } : {}) };
  const actions = [...collapseActions(ctx, collapsed, spec.rule, spec.reason), ...applyKeptEdits(plan, keptEdits)];
  const pointer = spec.pointer ?? tailStart;
  log.push(
    `collapsed ${collapsed.length} messages (${collapsedTokens} tokens) into a ${summaryTokens}-token summary at message ${at}; tail starts at message ${pointer}; projected ${projected} of ${ctx.prefixTokens} tokens`,
  );
  return {
    plan,
    actions,
    tailStart: pointer,
    sidecars: [...(spec.sidecars ?? []), ...pretrim.sidecars],
    log,
    details: {
      splitPoint: tailStart,
      summaryAt: at,
      collapsedMessages: collapsed.length,
      collapsedTokens,
      summarizer: ctx.summarizer.id,
      summarizerInputMessages: pretrim.items.length,
      summarizerInputTokens: pretrim.items.reduce((sum, i) => sum + i.tokens, 0),
      summaryTokens,
    },
  };
}

/**
 * What a split at `tailStart` collapses: every message before it (the split never goes inside the
 * latest turn) except the preamble's system messages, the protected messages and `keep`. Shared by
 * `compactWithSummary` and the harness-target fit (fit-target.ts), so an estimate is the real thing.
 */
export function collapsedMessages(
  ctx: PolicyContext,
  splitAt: number,
  keep?: ReadonlySet<number>,
): { tailStart: number; collapsed: number[]; collapsedTokens: number } {
  const tailStart = Math.max(0, Math.min(splitAt, latestTurnStart(ctx)));
  const kept = preambleSystem(ctx);
  for (const m of keep ?? []) kept.add(m);
  const collapsed: number[] = [];
  let collapsedTokens = 0;
  for (let m = 0; m < tailStart; m++) {
    if (kept.has(m) || ctx.protect.messages.has(m)) continue;
    collapsed.push(m);
    collapsedTokens += ctx.index.messageTokens[m]!;
  }
  return { tailStart, collapsed, collapsedTokens };
}

/**
 * Tokens the summarizer may read: the summarizing model shares the agent's window and must leave
 * room for the summary (seed 001, "A common pre-trim step").
 */
export function summarizerInputBudget(ctx: Pick<PolicyContext, "window" | "summaryCap">): number {
  return Math.max(0, ctx.window - ctx.summaryCap);
}
