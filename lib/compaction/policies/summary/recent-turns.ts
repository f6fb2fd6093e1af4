import { partText } from "../../../tokens/message-tokens";
import { numParam } from "../params";
import { dropOldestUntilFits } from "../pretrim/drop-oldest-until-fits";
import { truncateMiddleToTokens } from "../pretrim/text";
import { truncateToolOutputsToLastLines } from "../pretrim/truncate-to-last-lines";
import type { Policy, PolicyContext, PolicyDecision } from "../types";
import { compactWithSummary, summarizerInputBudget, type KeptEdit } from "./collapse";
import { fitSummaryTarget, keptBySplit, keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { turnStarts } from "./timeline";
import { SEED_TRIGGER_PARAMS, seedHeadroomFires } from "./trigger-input";

/** Seed 001, Strategy 3: "Keep the last N complete turns (default N=2)". */
export const RECENT_TURNS = 2;
/** Seed 001, Strategy 3: per-turn budget "25% of usable context, clamped to [2K, 8K]". */
export const TURN_BUDGET = { share: 0.25, min: 2_000, max: 8_000 } as const;
/** A truncated tool output keeps at least this many tokens of head and tail. */
const MIN_KEPT_OUTPUT_TOKENS = 200;

const INSTRUCTIONS =
  "The last turns stay verbatim after this summary; summarize the earlier turns so another model can continue: the goal, progress so far, decisions and why, constraints, the next steps, and exact identifiers (paths, commands, ids, values) needed to resume.";

/**
 * Seed 001, Strategy 3 — preserve recent turns. A turn is a user message plus everything produced
 * in response; the last N = 2 are kept and everything older collapses into the summary at the
 * split point (tail-start pointer: the first user message of the (M − N + 1)th turn). Each kept
 * turn is capped at 25% of usable context clamped to [2K, 8K]; an over-budget turn has its oldest
 * tool outputs truncated head/tail until it fits (protected messages are never cut), each logged.
 * Pre-trim: tool outputs cut to their last lines (spilled), then the oldest items dropped to fit.
 * Harness target: N is derived from the target (fitTurns).
 */
export const recentTurnsPolicy: Policy = {
  id: "recent-turns",
  family: "seed-001",
  source: "seed 001, Strategy 3: Preserve recent turns (N = 2; per-turn budget 25% of usable context clamped to [2K, 8K])",
  description: "Keeps the last 2 turns, each capped at a per-turn budget, and collapses everything older into one summary.",
  params: [
    { name: "turns", default: RECENT_TURNS, description: "Complete turns kept verbatim (seed 001: N = 2)." },
    { name: "turnBudgetShare", default: TURN_BUDGET.share, description: "Per-turn budget as a share of usable context (seed 001: 25%)." },
    { name: "minTurnTokens", default: TURN_BUDGET.min, description: "Lower clamp of the per-turn budget (seed 001: 2K)." },
    { name: "maxTurnTokens", default: TURN_BUDGET.max, description: "Upper clamp of the per-turn budget (seed 001: 8K)." },
    { name: "reserveTokens", default: 20_000, description: "Window tokens reserved for output; usable context = window − reserve." },
    ...SEED_TRIGGER_PARAMS,
  ],
  fires: seedHeadroomFires,
  async decide(ctx, params) {
    const usable = Math.max(0, ctx.window - numParam(params, "reserveTokens"));
    const budget = Math.min(
      numParam(params, "maxTurnTokens"),
      Math.max(numParam(params, "minTurnTokens"), Math.floor(numParam(params, "turnBudgetShare") * usable)),
    );
    const n = Math.max(1, Math.floor(numParam(params, "turns")));
    if (ctx.targetTokens === undefined) return keepTurns(ctx, n, budget, usable);
    const starts = turnStarts(ctx);
    const { decision, fit } = await summarizeWithinTarget(
      ctx,
      (reserve) => fitTurns(ctx, starts, budget, reserve),
      (f) => keepTurns(ctx, f.turns, f.turnBudget, usable, f),
    );
    return reportSummaryTarget(ctx, decision, `turns = ${fit.turns}`, keptTooLarge("the system prompt and the protected latest turn", fit));
  },
};

/** Strategy 3 with N turns and a per-turn budget (and, under a harness target, the fitted summary cap). */
function keepTurns(ctx: PolicyContext, n: number, budget: number, usable: number, fit?: SummaryFit): Promise<PolicyDecision> {
  const starts = turnStarts(ctx);
  const keptStarts = n > 0 ? starts.slice(Math.max(0, starts.length - n)) : [];
  const tailStart = keptStarts[0] ?? ctx.cut;
  const log = [
    `${starts.length} turns in the prefix; keeping the last ${keptStarts.length} from message ${tailStart}; per-turn budget ${budget} tokens (usable ${usable})`,
  ];
  const keptEdits: KeptEdit[] = [];
  keptStarts.forEach((start, i) => keptEdits.push(...fitTurn(ctx, start, keptStarts[i + 1] ?? ctx.cut, budget, log)));
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart,
    keptEdits,
    pretrim: [truncateToolOutputsToLastLines(), dropOldestUntilFits({ budget: summarizerInputBudget(ctx) })],
    instructions: INSTRUCTIONS,
    rule: "recent-turns/older-turns",
    reason: `collapsed into the summary: older than the last ${n} turns`,
    log,
  });
}

/**
 * Under a harness target, N is the largest number of newest turns — each within the per-turn budget —
 * that fits with the summary. N may reach 0 in a long single-task run (the whole run is one turn):
 * then only what the harness protects, the request and the newest steps, stays verbatim.
 */
function fitTurns(ctx: PolicyContext, starts: readonly number[], turnBudget: number, reserve: number): SummaryFit & { turns: number; turnBudget: number } {
  const savedIn = new Map<number, number>();
  const kept = (n: number) => {
    const keptStarts = starts.slice(starts.length - n);
    let saved = 0;
    keptStarts.forEach((start, i) => {
      let s = savedIn.get(start);
      if (s === undefined) {
        s = fitTurn(ctx, start, keptStarts[i + 1] ?? ctx.cut, turnBudget, []).reduce((sum, e) => sum + e.tokensBefore - e.tokensAfter, 0);
        savedIn.set(start, s);
      }
      saved += s;
    });
    return keptBySplit(ctx, keptStarts[0] ?? ctx.cut) - saved;
  };
  const fit = fitSummaryTarget(ctx, 0, starts.length, kept, undefined, reserve);
  return { ...fit, turns: fit.x, turnBudget };
}

/** Truncates the oldest unprotected tool outputs of turn [start, end) head/tail until it fits `budget`. */
function fitTurn(ctx: PolicyContext, start: number, end: number, budget: number, log: string[]): KeptEdit[] {
  let tokens = ctx.index.prefixTokens[end]! - ctx.index.prefixTokens[start]!;
  if (tokens <= budget) return [];
  const before = tokens;
  const edits: KeptEdit[] = [];
  for (let m = start; m < end && tokens > budget; m++) {
    if (ctx.protect.messages.has(m)) continue;
    ctx.session.messages[m]!.parts.forEach((part, p) => {
      const id = ctx.index.functionAt.get(`${m}:${p}`);
      const object = id ? ctx.index.byId.get(id) : undefined;
      if (tokens <= budget || !id || !object || object.tokens <= MIN_KEPT_OUTPUT_TOKENS) return;
      const limit = Math.max(MIN_KEPT_OUTPUT_TOKENS, object.tokens - (tokens - budget));
      const text = truncateMiddleToTokens(partText(part), limit, (t) => ctx.tokenizer.count(t), object.tokens);
      const after = ctx.tokenizer.count(text);
      if (after >= object.tokens) return;
      tokens -= object.tokens - after;
      edits.push({
        message: m,
        part: p,
        target: id,
        text,
        tokensBefore: object.tokens,
        tokensAfter: after,
        rule: "recent-turns/per-turn-budget",
        reason: `turn over its ${budget}-token budget: oldest tool output truncated head/tail`,
      });
    });
  }
  log.push(
    `turn at message ${start} is ${before} tokens, over its ${budget}-token budget: ${edits.length} oldest tool outputs truncated, now ${tokens}${tokens > budget ? " (the rest is protected or not tool output)" : ""}`,
  );
  return edits;
}
