import { numParam } from "../params";
import { CODEX_TOOL_OUTPUT_CAP, capItemLength } from "../pretrim/cap-item-length";
import { dropOldestUntilFits } from "../pretrim/drop-oldest-until-fits";
import { truncateMiddleToTokens } from "../pretrim/text";
import { allOf, anyOf, budget, needsFollowUp, type Trigger } from "../shared/triggers";
import type { Policy, PolicyContext, PolicyDecision } from "../types";
import { compactWithSummary, summarizerInputBudget, type KeptEdit } from "./collapse";
import { fitSummaryTarget, keptBySplit, keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { isRealUserMessage, latestTurnStart } from "./timeline";
import { triggerInputAt } from "./trigger-input";

/** compaction-harnesses.md §1 (codex-rs/core/src/compact.rs, openai_models.rs, model_family.rs). */
export const CODEX = { autoCompactRatio: 0.9, userMessageMaxTokens: 20_000, toolOutputMaxTokens: 10_000 } as const;

/** Tracefold's wording of the role `summary_prefix.md` plays: the summary is another model's handoff. */
const SUMMARY_PREFIX =
  "Another model worked on this task before you and wrote the handoff summary below. The tools it used are still in the state it left them; build on its work instead of starting over.";
const INSTRUCTIONS =
  "Checkpoint handoff: another model picks this task up from your summary alone. Cover what the user is after, where the work stands and which decisions were taken, context and preferences that still bind, the steps that remain, and any concrete data or references it will need.";

/** Pre-turn (a new user message is pending) or mid-turn when the model must follow up. */
const pendingUserInput: Trigger = (i) => i.lastRole === "user";

/**
 * Codex CLI local ("inline") compaction. Trigger: usage ≥ auto_compact_token_limit = 90% of the
 * window, pre-turn or mid-turn when `needs_follow_up`. Rebuild (`build_compacted_history_with_limit`):
 * real user messages newest → oldest while they fit COMPACT_USER_MESSAGE_MAX_TOKENS = 20,000; the
 * first that does not fit is head/tail-truncated to the remaining budget and ends the walk; then the
 * summary as a user message with the summary prefix. Assistant messages and tool calls/outputs are
 * dropped; the initial context (system) is kept. Tool outputs are truncated middle at 10,000 tokens
 * when recorded, so that is what the summarizer reads, and on overflow the oldest items are dropped
 * (`remove_first_item`). Token counts come from the index (Codex estimates bytes/4).
 * Harness target: the user-message budget is derived from the target (fitUserBudget).
 */
export const codexPolicy: Policy = {
  id: "codex",
  family: "harness",
  source: "compaction-harnesses.md §1 — openai/codex compact.rs: COMPACT_USER_MESSAGE_MAX_TOKENS 20,000; auto limit 90% of window; tool outputs 10,000 tokens",
  description:
    "Codex CLI: keeps the newest user messages within 20K tokens (the first that does not fit truncated), drops agent items and appends a handoff summary.",
  params: [
    {
      name: "autoCompactRatio",
      default: CODEX.autoCompactRatio,
      description: "auto_compact_token_limit as a share of the window (Codex: context_window × 9/10).",
    },
    { name: "userMessageMaxTokens", default: CODEX.userMessageMaxTokens, description: "Budget for verbatim user messages (COMPACT_USER_MESSAGE_MAX_TOKENS)." },
  ],
  fires: (ctx, params) => allOf(budget(numParam(params, "autoCompactRatio")), anyOf(pendingUserInput, needsFollowUp))(triggerInputAt(ctx)),
  async decide(ctx, params) {
    if (ctx.targetTokens === undefined) return rebuild(ctx, numParam(params, "userMessageMaxTokens"));
    const { decision, fit } = await summarizeWithinTarget(
      ctx,
      (reserve) => fitUserBudget(ctx, reserve),
      (f) => rebuild(ctx, f.x, f),
    );
    return reportSummaryTarget(ctx, decision, `userMessageMaxTokens = ${fit.x} tokens`, keptTooLarge("the system prompt and the protected latest turn", fit));
  },
};

/** Codex's rebuild with a user-message budget (and, under a harness target, the fitted summary cap). */
function rebuild(ctx: PolicyContext, limit: number, fit?: SummaryFit): Promise<PolicyDecision> {
  const { kept, edits, log } = selectUserMessages(ctx, limit);
  const ordered = [...kept].sort((a, b) => a - b);
  const all = Array.from({ length: ctx.cut }, (_, m) => m);
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart: latestTurnStart(ctx),
    ...(ordered[0] !== undefined ? { pointer: ordered[0], summaryAt: ordered.at(-1)! + 1 } : {}),
    keep: kept,
    keptEdits: edits,
    input: all,
    pretrim: [capItemLength(CODEX_TOOL_OUTPUT_CAP), dropOldestUntilFits({ budget: summarizerInputBudget(ctx) })],
    instructions: INSTRUCTIONS,
    wrap: (summary) => `${SUMMARY_PREFIX}\n${summary}`,
    rule: "codex/user-message-budget",
    reason: "dropped by the Codex rebuild: only real user messages within 20,000 tokens are carried over",
    log,
  });
}

/** Newest → oldest real user messages within `limit`; the one that does not fit is cut to what remains. */
interface UserWalk {
  kept: Set<number>;
  /** The message cut to the remaining budget (unprotected), with that budget. */
  truncated?: { message: number; remaining: number };
  /** The protected message that did not fit and stays whole. */
  oversized?: { message: number; remaining: number };
  remaining: number;
}

function walkUserMessages(ctx: PolicyContext, limit: number): UserWalk {
  const kept = new Set<number>();
  let remaining = limit;
  for (let m = ctx.cut - 1; m >= 0 && remaining > 0; m--) {
    if (!isRealUserMessage(ctx.session.messages[m]!)) continue;
    const tokens = ctx.index.messageTokens[m]!;
    kept.add(m);
    if (tokens <= remaining) {
      remaining -= tokens;
      continue;
    }
    const at = { message: m, remaining };
    return ctx.protect.messages.has(m) ? { kept, oversized: at, remaining: 0 } : { kept, truncated: at, remaining: 0 };
  }
  return { kept, remaining };
}

/** Newest → oldest real user messages within `limit`; the first that does not fit is truncated to the rest. */
function selectUserMessages(ctx: PolicyContext, limit: number): { kept: Set<number>; edits: KeptEdit[]; log: string[] } {
  const walk = walkUserMessages(ctx, limit);
  const edits: KeptEdit[] = [];
  const log: string[] = [];
  if (walk.oversized) {
    const { message: m, remaining } = walk.oversized;
    log.push(
      `user message ${m} (${ctx.index.messageTokens[m]} tokens) does not fit the remaining ${remaining} but belongs to the protected latest turn: kept whole`,
    );
  } else if (walk.truncated) {
    const { message: m, remaining } = walk.truncated;
    edits.push(...truncateUserMessage(ctx, m, remaining));
    log.push(`user message ${m} (${ctx.index.messageTokens[m]} tokens) did not fit: truncated head/tail to the remaining ${remaining} tokens; walk stops`);
  }
  log.unshift(`kept ${walk.kept.size} real user messages within the ${limit}-token budget (${limit - walk.remaining} used)`);
  return { kept: walk.kept, edits, log };
}

/** Slack for a message cut to its remaining budget: its truncation marker and non-text parts. */
const TRUNCATION_SLACK = 24;

/**
 * Under a harness target, COMPACT_USER_MESSAGE_MAX_TOKENS is the largest budget whose carried-over
 * user messages (newest first, the last one cut to what remains) fit with the summary. The cut
 * message is estimated at its remaining budget plus a small slack, not tokenised, during the search.
 */
function fitUserBudget(ctx: PolicyContext, reserve: number): SummaryFit {
  let all = 0;
  for (let m = 0; m < ctx.cut; m++) if (isRealUserMessage(ctx.session.messages[m]!)) all += ctx.index.messageTokens[m]!;
  const latest = latestTurnStart(ctx);
  const kept = (limit: number) => {
    const walk = walkUserMessages(ctx, limit);
    const base = keptBySplit(ctx, latest, walk.kept);
    if (!walk.truncated) return base;
    const { message, remaining } = walk.truncated;
    return base - ctx.index.messageTokens[message]! + Math.min(ctx.index.messageTokens[message]!, remaining + TRUNCATION_SLACK);
  };
  return fitSummaryTarget(ctx, 0, all, kept, undefined, reserve);
}

/** The message's text, joined into its first text part and middle-truncated; its other text parts dropped. */
function truncateUserMessage(ctx: PolicyContext, m: number, budgetTokens: number): KeptEdit[] {
  const parts = ctx.session.messages[m]!.parts;
  const textParts = parts.flatMap((p, i) => (p.type === "text" ? [i] : []));
  if (textParts.length === 0) return [];
  const count = (t: string) => ctx.tokenizer.count(t);
  const text = textParts.map((i) => (parts[i] as { text: string }).text).join("\n");
  const before = count(text);
  const nonText = ctx.index.messageTokens[m]! - before;
  const truncated = truncateMiddleToTokens(text, Math.max(0, budgetTokens - nonText), count, before);
  const target = ctx.index.turnOf[m] ?? `message:${m}`;
  const reason = "the first user message that did not fit the 20,000-token budget is truncated to the remainder";
  return textParts.map((p, i) =>
    i === 0
      ? { message: m, part: p, target, text: truncated, tokensBefore: before, tokensAfter: count(truncated), rule: "codex/user-message-truncated", reason }
      : { message: m, part: p, target, text: null, tokensBefore: 0, tokensAfter: 0, rule: "codex/user-message-truncated", reason },
  );
}
