import { mergeReminders } from "../../projection/pointers";
import { MESSAGE_OVERHEAD_TOKENS } from "../../../tokens/message-tokens";
import type { PolicyContext, PolicyDecision } from "../types";

/**
 * Matched budgets from the policy's side (issue 16). With `ctx.targetTokens` set, every policy sets
 * its own knob — a kept-tail size, a number of turns or observations, a token budget, a trigger
 * threshold — from the target, so its estimated view is at most the target, and keeps its own order
 * of what goes first. What it reports is one shape for every policy, in `details.target` and one
 * log line, so a reader (and the invariant tests) can tell "reached" from "could not, because…":
 * a policy that cannot reach the target (the protected latest turn alone is larger, it only resets,
 * the rest is not the kind of content it edits) says why and gets as close as it can.
 */
export interface TargetReport {
  /** The harness's target view size in tokens. */
  tokens: number;
  /** The policy's own estimate of the view it produces. */
  estimated: number;
  reached: boolean;
  /** The knob the target set, as the policy names it (`keep = 7 tool uses`). */
  knob: string;
  /** Why the target is out of reach; present exactly when `reached` is false. */
  why?: string;
}

/**
 * Adds the target report to a decision (`details.target`, one log line). `unreachable` is the
 * policy's reason, used only when the estimate is over the target. Without a target the decision
 * is returned as it is.
 */
export function withTargetReport(ctx: PolicyContext, decision: PolicyDecision, estimated: number, knob: string, unreachable: string): PolicyDecision {
  if (ctx.targetTokens === undefined) return decision;
  const tokens = ctx.targetTokens;
  const reached = estimated <= tokens;
  const report: TargetReport = { tokens, estimated: Math.round(estimated), reached, knob, ...(reached ? {} : { why: unreachable }) };
  const line = reached
    ? `harness target ${tokens} tokens: ${knob}; estimated view ${report.estimated}`
    : `harness target ${tokens} tokens not reachable: ${unreachable}; ${knob} gets closest, estimated view ${report.estimated}`;
  return { ...decision, log: [...decision.log, line], details: { ...decision.details, target: report } };
}

/**
 * The largest integer x in [lo, hi] whose `size(x)` is at most `target`, for a knob whose view
 * grows with x (more turns, more observations, a larger tail). Binary search; whatever it returns
 * fits (only a fitting x is ever kept), so a size that is not strictly monotone (snapping to
 * boundaries) can cost some closeness, never the bound. Undefined when even `size(lo)` is over.
 */
export function largestFitting(lo: number, hi: number, size: (x: number) => number, target: number): number | undefined {
  if (hi < lo) return undefined;
  let a = lo;
  let b = hi;
  let best: number | undefined;
  while (a <= b) {
    const mid = Math.floor((a + b) / 2);
    if (size(mid) <= target) {
      best = mid;
      a = mid + 1;
    } else b = mid - 1;
  }
  if (best !== undefined) return best;
  return size(lo) <= target ? lo : undefined;
}

/**
 * `largestFitting`, or — when no x fits — the x with the smallest view (the first on a tie): "as
 * close as it can get" for knobs whose most aggressive setting is not always the smallest view
 * (a placeholder longer than a tiny output it replaces). Evaluates every x in that case, so use it
 * for cheap size functions over small ranges.
 */
export function closestFitting(lo: number, hi: number, size: (x: number) => number, target: number): number {
  const fitting = largestFitting(lo, hi, size, target);
  if (fitting !== undefined) return fitting;
  let best = lo;
  let bestSize = size(lo);
  for (let x = lo + 1; x <= hi; x++) {
    const s = size(x);
    if (s < bestSize) {
      best = x;
      bestSize = s;
    }
  }
  return best;
}

const answered = new WeakMap<PolicyContext["protect"], Set<number>>();

/**
 * Messages outside the protected latest turn that hold a tool call answered inside it. Lineage
 * repair never drops a protected result, so it undoes the removal of such a call's whole message:
 * an estimate that drops one of them must count it back (`restoredTokens`). Calls pair with the
 * nearest earlier call of the same id, as lineage repair pairs them. Cached per protected set.
 */
export function callsAnsweredInProtected(ctx: PolicyContext): ReadonlySet<number> {
  const known = answered.get(ctx.protect);
  if (known) return known;
  const latestCall = new Map<string, number>();
  const out = new Set<number>();
  for (let m = 0; m < ctx.cut; m++) {
    for (const part of ctx.session.messages[m]!.parts) {
      if (part.type === "tool_call") latestCall.set(part.id, m);
      else if (part.type === "tool_result" && !part.orphan && ctx.protect.messages.has(m)) {
        const owner = latestCall.get(part.callId);
        if (owner !== undefined && !ctx.protect.messages.has(owner)) out.add(owner);
      }
    }
  }
  answered.set(ctx.protect, out);
  return out;
}

/** Tokens of the dropped messages lineage repair will put back (see `callsAnsweredInProtected`). */
export function restoredTokens(ctx: PolicyContext, dropped: Iterable<number>): number {
  const restored = callsAnsweredInProtected(ctx);
  let tokens = 0;
  for (const m of dropped) if (restored.has(m)) tokens += ctx.index.messageTokens[m]!;
  return tokens;
}

/**
 * Tokens the fold reminders of a plan add to the view, as the harness will write them: merged per
 * message (`mergeReminders`), appended to their message, and those meant for the protected latest
 * turn gathered into one reminder message of their own (its framing counted once).
 */
export function reminderTokens(ctx: PolicyContext, reminders: ReadonlyMap<number, readonly string[]>): number {
  let tokens = 0;
  let toProtected = false;
  for (const [m, texts] of reminders) {
    for (const text of mergeReminders(texts)) tokens += ctx.tokenizer.count(text);
    if (ctx.protect.messages.has(m)) toProtected = true;
  }
  return tokens + (toProtected ? MESSAGE_OVERHEAD_TOKENS : 0);
}
