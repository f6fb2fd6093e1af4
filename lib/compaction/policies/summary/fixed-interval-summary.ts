import { numParam } from "../params";
import { dropOldestUntilFits } from "../pretrim/drop-oldest-until-fits";
import { budget } from "../shared/triggers";
import type { Policy, PolicyContext, PolicyDecision } from "../types";
import { compactWithSummary, summarizerInputBudget } from "./collapse";
import { keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { fitInterval } from "./interval";
import { latestTurnStart } from "./timeline";
import { triggerInputAt } from "./trigger-input";

/** Seed 003: "Summarization is triggered when 30% of the max context window is consumed". */
export const FIXED_INTERVAL_RATIO = 0.3;

const INSTRUCTIONS =
  "Everything but the latest turn is being replaced by this summary; write what another model needs to continue: the goal, progress and intermediate results so far, decisions and why, constraints, the next steps, and exact identifiers (paths, commands, ids, values, URLs) needed to resume.";

/**
 * Seed 003's Fixed-Interval Summary baseline: a budget trigger at 30% of the window; when it fires,
 * everything but the latest turn (the messages the harness protects) is summarized and the summary
 * takes its place. Its compactions sit at the threshold by construction — the contrast to
 * Self-Compact. Pre-trim: drop the oldest items until the summarizer input fits.
 * Harness target: the trigger threshold becomes the target, replayed from the session start
 * (interval.ts); the view is the summary plus everything since the last reset, so it sits below the
 * target by however far the last reset lies back — a reset policy keeps its rhythm, it cannot be
 * tuned to the exact size.
 */
export const fixedIntervalSummaryPolicy: Policy = {
  id: "fixed-interval-summary",
  family: "seed-003",
  source: "seed 003, baselines: Fixed-Interval Summary (triggered when 30% of the max context window is consumed)",
  description: "Summarizes everything but the latest turn whenever the prefix reaches 30% of the window.",
  params: [
    {
      name: "triggerRatio",
      default: FIXED_INTERVAL_RATIO,
      description: "Budget trigger: fire when the prefix reaches this share of the window (seed 003: 30%).",
    },
  ],
  fires: (ctx, params) => budget(numParam(params, "triggerRatio"))(triggerInputAt(ctx)),
  async decide(ctx, params) {
    const ratio = numParam(params, "triggerRatio");
    const reading = `${ctx.prefixTokens} tokens = ${((100 * ctx.prefixTokens) / Math.max(1, ctx.window)).toFixed(1)}% of the ${ctx.window}-token window (fires at ${ratio * 100}%)`;
    if (ctx.targetTokens === undefined) return summarizeBefore(ctx, latestTurnStart(ctx), [reading]);
    const target = ctx.targetTokens;
    const { decision, fit } = await summarizeWithinTarget(
      ctx,
      (reserve) => fitInterval(ctx, reserve),
      (f) =>
        summarizeBefore(
          ctx,
          f.tailStart,
          [
            reading,
            `harness target: the trigger threshold is ${target} tokens; replayed from the start it reset ${f.resets} times, the last keeping messages from ${f.tailStart}`,
          ],
          f,
        ),
    );
    return reportSummaryTarget(
      ctx,
      decision,
      `trigger threshold = ${target} tokens (${fit.resets} resets)`,
      keptTooLarge("the system prompt and the protected latest turn", fit),
    );
  },
};

/** Everything before `tailStart` (the latest turn, or the last reset under a target) into one summary. */
function summarizeBefore(ctx: PolicyContext, tailStart: number, log: string[], fit?: SummaryFit): Promise<PolicyDecision> {
  const reset = tailStart === latestTurnStart(ctx);
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart,
    pretrim: [dropOldestUntilFits({ budget: summarizerInputBudget(ctx) })],
    instructions: INSTRUCTIONS,
    rule: "fixed-interval-summary/before-latest-turn",
    reason: reset ? "collapsed into the summary: older than the latest turn" : "collapsed into the summary: older than the last reset",
    log,
  });
}
