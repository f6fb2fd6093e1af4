import { MESSAGE_OVERHEAD_TOKENS } from "../../../tokens/message-tokens";
import { largestFitting, restoredTokens, withTargetReport } from "../shared/target";
import type { PolicyContext, PolicyDecision } from "../types";
import { collapsedMessages } from "./collapse";

/**
 * The harness target for the summary families (issue 16). A summary policy's view is what it keeps
 * verbatim — the preamble's system messages, the protected latest turn, its kept tail or kept user
 * messages — plus one summary message of at most the summary cap. Under a target each policy maps
 * its own knob (kept-tail share, turns, events, a token budget, a trigger threshold) to an integer
 * `x` whose view grows with x, and this picks the largest x whose kept part plus a full-cap summary
 * fits. When even the smallest x does not leave room for a full-cap summary, the summary is given
 * what room is left (never less than `MIN_SUMMARY_TOKENS`, below which a capped summary is only its
 * cut marker): the policy's own removals go first, a shorter summary last.
 *
 * A full-cap reservation is safe but wasteful when the summarizer writes much less than the cap
 * (the embedded extractive one often does): the tail would be cut far below the target. So
 * `summarizeWithinTarget` fits once with the cap, summarizes, and — when that summary came out
 * clearly shorter — fits again reserving only its size and summarizes the (smaller) collapsed part
 * under that size as its cap. The second summary can never be longer than the first, so the view
 * stays within the target either way; a summarizer that fills its cap is asked once.
 */
export const MIN_SUMMARY_TOKENS = 32;

export interface SummaryFit {
  /** The knob value chosen. */
  x: number;
  /** The summary cap to write the summary under (the harness cap, or less when room is short). */
  summaryCap: number;
  /** Estimated view: kept part plus the summary message(s) at that cap. */
  estimated: number;
  reached: boolean;
}

/**
 * `kept(x)`: tokens of the view without the summary message(s) at knob x (non-decreasing in x);
 * `reply`: an assistant message the policy adds after the summary (Gemini CLI's acknowledgement).
 */
export function fitSummaryTarget(
  ctx: PolicyContext,
  lo: number,
  hi: number,
  kept: (x: number) => number,
  reply?: string,
  reserve = ctx.summaryCap,
): SummaryFit {
  const target = ctx.targetTokens ?? ctx.prefixTokens;
  const fixed = MESSAGE_OVERHEAD_TOKENS + (reply ? MESSAGE_OVERHEAD_TOKENS + ctx.tokenizer.count(reply) : 0);
  const x = largestFitting(lo, hi, (v) => kept(v) + fixed + reserve, target);
  if (x !== undefined) return { x, summaryCap: reserve, estimated: kept(x) + fixed + reserve, reached: true };
  const rest = kept(lo) + fixed;
  const summaryCap = Math.max(MIN_SUMMARY_TOKENS, Math.min(reserve, target - rest));
  return { x: lo, summaryCap, estimated: rest + summaryCap, reached: rest + summaryCap <= target };
}

/** A summary shorter than this share of its cap earns a second, tighter fit. */
const REFIT_BELOW = 0.9;

/**
 * Fits the policy's knob to the target (`fit(reserve)`: its fitSummaryTarget call with that summary
 * reservation) and runs the policy with the fit (`run`), refitting once around the summary's real
 * size (see above). Returns the decision and the fit it was made with.
 */
export async function summarizeWithinTarget<F extends SummaryFit>(
  ctx: PolicyContext,
  fit: (reserve: number) => F,
  run: (fit: F) => Promise<PolicyDecision>,
): Promise<{ decision: PolicyDecision; fit: F }> {
  const first = fit(ctx.summaryCap);
  const decision = await run(first);
  const summary = decision.plan.summary;
  if (!summary) return { decision, fit: first };
  const written = ctx.tokenizer.count(summary.text);
  if (written >= REFIT_BELOW * first.summaryCap) return { decision, fit: first };
  const second = fit(Math.max(MIN_SUMMARY_TOKENS, written));
  if (second.x === first.x) return { decision, fit: first };
  return { decision: await run(second), fit: second };
}

/** Tokens of the view a split at `tailStart` keeps (before any kept-part truncation), summary excluded. */
export function keptBySplit(ctx: PolicyContext, tailStart: number, keep?: ReadonlySet<number>): number {
  const { collapsed, collapsedTokens } = collapsedMessages(ctx, tailStart, keep);
  return ctx.prefixTokens - collapsedTokens + restoredTokens(ctx, collapsed);
}

/**
 * The target report of a summary decision, from what it did: the prefix less every collapsed and
 * truncated token (plus what lineage repair puts back), plus the summary message(s). A decision that wrote no summary (nothing to
 * collapse, an empty or inflating summary) reports the unchanged prefix and its own reason.
 */
export function reportSummaryTarget(ctx: PolicyContext, decision: PolicyDecision, knob: string, why: string): PolicyDecision {
  if (ctx.targetTokens === undefined) return decision;
  if (!decision.plan.summary) {
    const saved = decision.actions.reduce((sum, a) => sum + a.tokensBefore - a.tokensAfter, 0);
    return withTargetReport(ctx, decision, ctx.prefixTokens - saved, knob, `no summary was written (${decision.log.at(-1) ?? "kept as is"})`);
  }
  const saved = decision.actions.reduce((sum, a) => sum + a.tokensBefore - a.tokensAfter, 0);
  const summaryTokens = typeof decision.details?.summaryTokens === "number" ? decision.details.summaryTokens : 0;
  const estimated = ctx.prefixTokens - saved + restoredTokens(ctx, decision.plan.dropMessages) + summaryTokens;
  return withTargetReport(ctx, decision, estimated, knob, why);
}

/** The context a summary policy summarizes under: the harness's, with the fitted summary cap. */
export function withSummaryCap(ctx: PolicyContext, fit: SummaryFit | undefined): PolicyContext {
  return fit && fit.summaryCap !== ctx.summaryCap ? { ...ctx, summaryCap: fit.summaryCap } : ctx;
}

/** The shared reason a summary policy misses a target: what it always keeps is already too large. */
export function keptTooLarge(what: string, fit: SummaryFit): string {
  return `${what} leave no room within the target even with the summary cut to ${fit.summaryCap} tokens`;
}
