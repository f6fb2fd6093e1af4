import { numParam } from "../params";
import { dropAgentItemsNewestFirst } from "../pretrim/drop-agent-items";
import type { Policy, PolicyContext, PolicyDecision } from "../types";
import { compactWithSummary, summarizerInputBudget } from "./collapse";
import { fitSummaryTarget, keptBySplit, keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { isRealUserMessage, latestTurnStart } from "./timeline";
import { SEED_TRIGGER_PARAMS, seedHeadroomFires } from "./trigger-input";

/** Seed 001, Strategy 1: "a max-token cap (~20K)" on the user messages kept. */
export const USER_MESSAGE_BUDGET = 20_000;

const INSTRUCTIONS =
  "The user's own messages stay in the context verbatim; summarize what the agent did in response so another model can continue: the goal, progress so far, decisions and why, constraints, the next steps, and exact identifiers (paths, commands, ids, values) needed to resume.";

/**
 * Seed 001, Strategy 1 — preserve user messages. Walking newest-first, every real user message is
 * kept until the ~20K-token cap is reached (the first that does not fit ends the walk); kept ones
 * stay in chronological order and everything else collapses into the summary, which sits at the
 * split point right after the latest preserved user message (never inside the protected latest
 * turn). Tail-start pointer: the first kept user message. Pre-trim: seed 001's "drop agent items
 * newest-first, leaving user messages intact", which matches this strategy's role asymmetry.
 * Harness target: the user-message budget is derived from the target (fitUserBudget); the agent's
 * items always go into the summary, so a large target leaves the view below it.
 */
export const preserveUserMessagesPolicy: Policy = {
  id: "preserve-user-messages",
  family: "seed-001",
  source: "seed 001, Strategy 1: Preserve user messages (walk newest-first within ~20K tokens; summary after the latest kept user message)",
  description: "Keeps the newest user messages within 20K tokens in order and collapses everything else into one summary placed after them.",
  params: [
    { name: "userTokenBudget", default: USER_MESSAGE_BUDGET, description: "Tokens of user messages kept verbatim, newest first (seed 001: ~20K)." },
    ...SEED_TRIGGER_PARAMS,
  ],
  fires: seedHeadroomFires,
  async decide(ctx, params) {
    if (ctx.targetTokens === undefined) return preserve(ctx, numParam(params, "userTokenBudget"));
    const { decision, fit } = await summarizeWithinTarget(
      ctx,
      (reserve) => fitUserBudget(ctx, reserve),
      (f) => preserve(ctx, f.budget, f),
    );
    return reportSummaryTarget(ctx, decision, `userTokenBudget = ${fit.budget} tokens`, keptTooLarge("the system prompt and the protected latest turn", fit));
  },
};

/** Strategy 1 with a user-message budget (and, under a harness target, the fitted summary cap). */
async function preserve(ctx: PolicyContext, budget: number, fit?: SummaryFit): Promise<PolicyDecision> {
  const kept = new Set<number>();
  let used = 0;
  let stoppedAt: number | undefined;
  for (let m = ctx.cut - 1; m >= 0; m--) {
    if (!isRealUserMessage(ctx.session.messages[m]!)) continue;
    const tokens = ctx.index.messageTokens[m]!;
    if (used + tokens > budget) {
      stoppedAt = m;
      break;
    }
    used += tokens;
    kept.add(m);
  }
  const ordered = [...kept].sort((a, b) => a - b);
  const last = ordered.at(-1);
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart: latestTurnStart(ctx),
    ...(ordered[0] !== undefined ? { pointer: ordered[0] } : {}),
    ...(last !== undefined ? { summaryAt: last + 1 } : {}),
    keep: kept,
    pretrim: [dropAgentItemsNewestFirst({ budget: summarizerInputBudget(ctx) })],
    instructions: INSTRUCTIONS,
    rule: "preserve-user-messages/outside-user-budget",
    reason: "collapsed into the summary: not a user message kept within the user-message budget",
    log: [
      `kept ${kept.size} user messages (${used} of ${budget} tokens), newest first${stoppedAt !== undefined ? `; message ${stoppedAt} (${ctx.index.messageTokens[stoppedAt]} tokens) did not fit and ended the walk` : ""}`,
    ],
  });
}

/**
 * Under a harness target, the user-message budget is what the newest user messages may take so that
 * they, the system prompt, the latest turn and the summary fit the target: the walk's own order
 * (newest first), with the count of kept messages as the knob.
 */
function fitUserBudget(ctx: PolicyContext, reserve: number): SummaryFit & { budget: number } {
  const newestFirst: number[] = [];
  for (let m = ctx.cut - 1; m >= 0; m--) if (isRealUserMessage(ctx.session.messages[m]!)) newestFirst.push(m);
  const tail = latestTurnStart(ctx);
  const fit = fitSummaryTarget(ctx, 0, newestFirst.length, (x) => keptBySplit(ctx, tail, new Set(newestFirst.slice(0, x))), undefined, reserve);
  const budget = newestFirst.slice(0, fit.x).reduce((sum, m) => sum + ctx.index.messageTokens[m]!, 0);
  return { ...fit, budget };
}
