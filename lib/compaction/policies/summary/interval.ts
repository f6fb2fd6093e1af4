import { protectedSet } from "../../projection/protect";
import { MESSAGE_OVERHEAD_TOKENS } from "../../../tokens/message-tokens";
import type { PolicyContext } from "../types";
import { fitSummaryTarget, keptBySplit, type SummaryFit } from "./fit-target";
import { isStepBoundary, latestTurnStart, preambleSystem, safeBoundaries } from "./timeline";

/**
 * The harness target for the policies that reset: at a compaction they replace everything but the
 * latest turn by a summary (seed 003's Fixed-Interval Summary; Self-Compact). Their knob is the
 * trigger threshold — when the next reset happens — not how much a reset keeps. Under a target the
 * threshold is the target: replaying the session from its start, the policy resets at every step
 * boundary where its context (system prompt, summary, what it kept since the last reset) reaches
 * the target, and the view at the cut is the summary plus everything since the last reset. So the
 * view is within the target by construction, somewhere between "summary + latest turn" (a reset at
 * the cut) and the target: such a policy cannot be tuned closer, only keep its rhythm.
 *
 * `resetsAt(b)` adds the policy's own compaction points before the cut (none for fixed-interval).
 * At an earlier boundary the latest turn is the one the harness would protect there (default
 * protection options); at the cut it is the run's own protected turn.
 */
export interface IntervalFit extends SummaryFit {
  /** First message kept verbatim after the last reset. */
  tailStart: number;
  /** Resets the replay made before and at the cut. */
  resets: number;
}

export function fitInterval(ctx: PolicyContext, reserve: number, resetsAt?: (boundary: number) => boolean): IntervalFit {
  const target = ctx.targetTokens ?? ctx.prefixTokens;
  const sums = ctx.index.prefixTokens;
  const summary = MESSAGE_OVERHEAD_TOKENS + reserve;
  const system = preambleSystem(ctx);
  const systemBefore = (k: number) => [...system].reduce((sum, m) => (m < k ? sum + ctx.index.messageTokens[m]! : sum), 0);
  const safe = safeBoundaries(ctx.session.messages, ctx.cut);
  let keptFrom = 0;
  let resets = 0;
  for (let b = 1; b < ctx.cut; b++) {
    if (!isStepBoundary(ctx.session.messages, safe, b)) continue;
    const size = sums[b]! - sums[keptFrom]! + (resets > 0 ? summary + systemBefore(keptFrom) : 0);
    if (size < target && !resetsAt?.(b)) continue;
    const start = protectedRunStart(ctx, b);
    if (start <= keptFrom) continue;
    keptFrom = start;
    resets++;
  }
  // At the cut the view is counted exactly; reaching the threshold here is a reset at the cut.
  const latest = latestTurnStart(ctx);
  const sinceLast = resets > 0 ? keptBySplit(ctx, keptFrom) + summary : ctx.prefixTokens;
  if (sinceLast >= target && latest > keptFrom) {
    keptFrom = latest;
    resets++;
  }
  const fit = fitSummaryTarget(ctx, keptFrom, keptFrom, () => keptBySplit(ctx, keptFrom), undefined, reserve);
  return { ...fit, tailStart: keptFrom, resets };
}

/** A reset at the cut (the policy's own decision there): summary plus the latest turn. */
export function fitResetAtCut(ctx: PolicyContext, reserve: number): IntervalFit {
  const latest = latestTurnStart(ctx);
  const fit = fitSummaryTarget(ctx, latest, latest, () => keptBySplit(ctx, latest), undefined, reserve);
  return { ...fit, tailStart: latest, resets: 1 };
}

/** First message of the trailing protected run at boundary b: the latest turn a reset there keeps. */
function protectedRunStart(ctx: PolicyContext, b: number): number {
  const { messages } = protectedSet(ctx.session.messages, ctx.index, b);
  let m = b;
  while (m > 0 && messages.has(m - 1)) m--;
  return m;
}
