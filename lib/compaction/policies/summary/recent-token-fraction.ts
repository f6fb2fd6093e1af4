import { numParam } from "../params";
import { dropOldestUntilFits } from "../pretrim/drop-oldest-until-fits";
import type { Policy, PolicyContext, PolicyDecision } from "../types";
import { compactWithSummary, summarizerInputBudget } from "./collapse";
import { fitSummaryTarget, keptBySplit, keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { isStepBoundary, safeBoundaries, snapBack, turnStarts } from "./timeline";
import { SEED_TRIGGER_PARAMS, seedHeadroomFires } from "./trigger-input";

/** Seed 001, Strategy 2: "observed: p = 0.3". */
export const RECENT_FRACTION = 0.3;

const INSTRUCTIONS =
  "The most recent part of the conversation stays verbatim after this summary; summarize the earlier part so another model can continue: the goal, progress so far, decisions and why, constraints, the next steps, and exact identifiers (paths, commands, ids, values) needed to resume.";

/**
 * Seed 001, Strategy 2 — preserve a recent token fraction. Walk back from the cut accumulating
 * message tokens (the index's prefix sums) until p × prefix tokens are collected, then snap forward
 * to the next user-message boundary so the tail starts on a user turn. Long single-task runs have
 * no user boundary inside the fraction: there the split snaps to the nearest safe step boundary
 * (an assistant step with no call/result pair across it) and the log says so. Tail-start pointer:
 * the first message of the recent fraction. Pre-trim: drop the oldest items until the input fits.
 * Harness target: p is the largest share (on a 1/10,000 grid) whose split keeps the view, summary
 * included, within the target.
 */
export const recentTokenFractionPolicy: Policy = {
  id: "recent-token-fraction",
  family: "seed-001",
  source: "seed 001, Strategy 2: Preserve a recent token fraction (p = 0.3, snapped to a user-message boundary)",
  description: "Keeps the newest 30% of the prefix tokens from a user-message boundary and collapses everything older into one summary.",
  params: [
    { name: "keepFraction", default: RECENT_FRACTION, description: "Share p of the prefix tokens kept from the end (seed 001: 0.3)." },
    ...SEED_TRIGGER_PARAMS,
  ],
  fires: seedHeadroomFires,
  async decide(ctx, params) {
    if (ctx.targetTokens === undefined) return collapseBefore(ctx, numParam(params, "keepFraction"));
    const fitFor = (reserve: number) =>
      fitSummaryTarget(ctx, 0, FRACTION_STEPS, (x) => keptBySplit(ctx, splitAt(ctx, x / FRACTION_STEPS).tailStart), undefined, reserve);
    const { decision, fit } = await summarizeWithinTarget(ctx, fitFor, (f) => collapseBefore(ctx, f.x / FRACTION_STEPS, f));
    return reportSummaryTarget(ctx, decision, `keepFraction = ${fit.x / FRACTION_STEPS}`, keptTooLarge("the system prompt and the protected latest turn", fit));
  },
};

/** Strategy 2 with kept fraction p (and, under a harness target, the fitted summary cap). */
function collapseBefore(ctx: PolicyContext, p: number, fit?: SummaryFit): Promise<PolicyDecision> {
  const { tailStart, log } = splitAt(ctx, p);
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart,
    pretrim: [dropOldestUntilFits({ budget: summarizerInputBudget(ctx) })],
    instructions: INSTRUCTIONS,
    rule: "recent-token-fraction/older-than-fraction",
    reason: `collapsed into the summary: older than the recent ${Math.round(p * 100)}% of the prefix`,
    log,
  });
}

/** Under a harness target, keepFraction is searched on this grid (1/10,000 of the prefix). */
const FRACTION_STEPS = 10_000;

/** Seed 001's split for a kept fraction p: walk back p × prefix tokens, then snap to a boundary. */
function splitAt(ctx: PolicyContext, p: number): { tailStart: number; log: string[] } {
  const sums = ctx.index.prefixTokens;
  const target = p * ctx.prefixTokens;
  let start = ctx.cut;
  while (start > 0 && sums[ctx.cut]! - sums[start]! < target) start--;
  const log = [`recent fraction: ${p} × ${ctx.prefixTokens} = ${Math.round(target)} tokens reached at message ${start}`];
  const userBoundary = turnStarts(ctx).find((s) => s >= start);
  let tailStart: number;
  if (userBoundary !== undefined) {
    tailStart = userBoundary;
    log.push(`snapped to the next user-message boundary, message ${tailStart}`);
  } else {
    tailStart = nearestStepBoundary(ctx.session.messages, safeBoundaries(ctx.session.messages, ctx.cut), start, ctx.cut);
    log.push(
      `no user-message boundary inside the recent fraction (it lies within one long turn): snapped to the nearest safe step boundary, message ${tailStart}`,
    );
  }
  return { tailStart, log };
}

/** The assistant step boundary closest to `k` (earlier on a tie, keeping more); else the safe position at or before k. */
function nearestStepBoundary(messages: Parameters<typeof isStepBoundary>[0], safe: boolean[], k: number, cut: number): number {
  for (let d = 0; d < cut; d++) {
    if (k - d >= 1 && isStepBoundary(messages, safe, k - d)) return k - d;
    if (k + d < cut && isStepBoundary(messages, safe, k + d)) return k + d;
  }
  return snapBack(safe, k);
}
