import { emptyPlan, partKey } from "../../projection/types";
import type { Message } from "../../../trace/model";
import { numParam } from "../params";
import { capToolResponseBudget } from "../pretrim/cap-tool-response-budget";
import { headTailTooLarge, sidecarRef } from "../pretrim/text";
import { partContent, replayTrimmed, runPretrim, spill, trimItemsFrom, type PretrimResult, type TrimItem } from "../pretrim/types";
import { largestFitting, withTargetReport, type TargetReport } from "../shared/target";
import { budget } from "../shared/triggers";
import type { Policy, PolicyContext, PolicyDecision, PolicyParams } from "../types";
import { compactWithSummary, keepAsIs, type KeptEdit } from "./collapse";
import { fitSummaryTarget, keptBySplit, keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { preambleSystem } from "./timeline";
import { triggerInputAt } from "./trigger-input";

/** compaction-harnesses.md §2 (gemini-cli chatCompressionService.ts, fileUtils.ts, config.ts). */
export const GEMINI = {
  threshold: 0.5,
  preserveFraction: 0.3,
  functionResponseBudget: 50_000,
  truncateToolOutputChars: 40_000,
  /** SAFE_BUFFER_TOKENS: the summarizer reads the untruncated history only if it fits the window less this. */
  safeBufferTokens: 20_000,
} as const;

const BUDGET_RULE = "gemini-cli/function-response-budget";
const ACK = "Got it — I'll continue from this snapshot.";
const INSTRUCTIONS =
  "Distill the history into a <state_snapshot> XML block that becomes the agent's only memory of it, with the sections overall_goal, active_constraints, key_knowledge, artifact_trail, file_system_state, recent_actions and task_state. Keep exact file paths, commands, tool results and user constraints.";
const PRIOR_SNAPSHOT = " A previous <state_snapshot> is in the history: carry every still-relevant point of it into the new one.";

/**
 * Gemini CLI chat compression. Trigger: last prompt tokens ≥ 0.5 × the model's token limit, checked
 * before every request. Pre-trim (`truncateHistoryToBudget`, always first): 50,000 tokens of
 * function responses kept newest → oldest, older ones cut to the 20/80 "Output too large…" form at
 * min(4 × remaining tokens, 40,000) chars. Split (`findCompressSplitPoint`, fraction 0.7 of
 * JSON.stringify lengths): the first user content without function responses after 70% of the
 * characters; none → everything if the last content is a model message without calls, else the
 * last valid split. New history: state snapshot + acknowledgement + kept 30% (post-truncation);
 * rejected with COMPRESSION_FAILED_INFLATED_TOKEN_COUNT when larger than before, leaving the
 * pre-trimmed history. Harness target: the preserve fraction is derived from it (compressToTarget).
 */
export const geminiCliPolicy: Policy = {
  id: "gemini-cli",
  family: "harness",
  source: "compaction-harnesses.md §2 — google-gemini/gemini-cli chatCompressionService.ts: threshold 0.5, preserve 0.3, function-response budget 50,000",
  description:
    "Gemini CLI: caps old tool output at a 50K-token budget, keeps the newest 30% of characters from a user message, and replaces the rest with a state snapshot.",
  params: [
    { name: "threshold", default: GEMINI.threshold, description: "DEFAULT_COMPRESSION_TOKEN_THRESHOLD: fire at this share of the token limit." },
    { name: "preserveFraction", default: GEMINI.preserveFraction, description: "COMPRESSION_PRESERVE_THRESHOLD: newest share of characters kept." },
    {
      name: "functionResponseBudget",
      default: GEMINI.functionResponseBudget,
      description: "COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET: tool-output tokens kept in full, newest first.",
    },
    {
      name: "truncateToolOutputChars",
      default: GEMINI.truncateToolOutputChars,
      description: "DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD: upper bound of the cut size in characters.",
    },
  ],
  fires: (ctx, params) => budget(numParam(params, "threshold"))(triggerInputAt(ctx)),
  decide(ctx, params) {
    const system = preambleSystem(ctx);
    const contents = Array.from({ length: ctx.cut }, (_, m) => m).filter((m) => !system.has(m));
    const maxChars = Math.max(0, Math.min(4 * (ctx.window - ctx.prefixTokens), numParam(params, "truncateToolOutputChars")));
    const step = capToolResponseBudget({ budget: numParam(params, "functionResponseBudget"), maxChars, headShare: 0.2 });
    const trimmed = runPretrim(trimItemsFrom(ctx.session.messages, contents, ctx.index), [step], ctx.tokenizer);
    const head = `tool outputs cut to ${maxChars} chars = min(4 × remaining tokens, ${numParam(params, "truncateToolOutputChars")})`;
    if (ctx.targetTokens === undefined) return compress(ctx, trimmed, numParam(params, "preserveFraction"), head);
    return compressToTarget(ctx, params, trimmed, head, maxChars);
  },
};

/** The history compressed at preserve fraction p (and, under a harness target, the fitted summary cap). */
function compress(ctx: PolicyContext, trimmed: PretrimResult, preserve: number, head: string, fit?: SummaryFit): Promise<PolicyDecision> {
  const split = findCompressSplitPoint(trimmed.items, 1 - preserve);
  const tailStart = split < trimmed.items.length ? trimmed.items[split]!.origin : ctx.cut;
  const log = [head, `split point: content ${split} of ${trimmed.items.length} → message ${tailStart}`];
  if (split === 0) return Promise.resolve(keepAsIs([...log, ...trimmed.log], "NOOP: nothing before the split point; the history is left unchanged"));
  const collapsed = trimmed.items.slice(0, split);
  const originalTokens = collapsed.reduce((sum, i) => sum + ctx.index.messageTokens[i.origin]!, 0);
  const useOriginal = originalTokens < ctx.window - GEMINI.safeBufferTokens;
  log.push(
    `summarizer reads the ${useOriginal ? "original" : "truncated"} history to compress (${originalTokens} tokens; limit ${ctx.window} − ${GEMINI.safeBufferTokens})`,
  );
  const prior = collapsed.some((i) => i.message.parts.some((p) => p.type === "text" && p.text.includes("<state_snapshot>")));
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart,
    pretrim: useOriginal ? [] : [replayTrimmed(trimmed, "the function-response-budget truncation above")],
    keptEdits: keptEditsOf(trimmed, tailStart),
    sidecars: trimmed.sidecars,
    instructions: prior ? INSTRUCTIONS + PRIOR_SNAPSHOT : INSTRUCTIONS,
    wrap: (s) => (s.includes("<state_snapshot>") ? s : `<state_snapshot>\n${s}\n</state_snapshot>`),
    reply: ACK,
    rule: "gemini-cli/split-point",
    reason: `compressed into the state snapshot: older than the newest ${Math.round(100 * preserve)}% of the history's characters`,
    log: [...log, ...trimmed.log],
    onInflation: (_projected, _pretrim, failed) =>
      preTrimmedView(ctx, trimmed, [...failed, "COMPRESSION_FAILED_INFLATED_TOKEN_COUNT: compression rejected; the pre-trimmed history is kept"]),
  });
}

/** Under a harness target, preserveFraction is searched on this grid (1/10,000 of the characters). */
const FRACTION_STEPS = 10_000;

/**
 * Under a harness target, COMPRESSION_PRESERVE_THRESHOLD is the largest share of the history's
 * characters whose kept part (after the function-response budget's truncations), the snapshot and
 * its acknowledgement fit the target; Gemini's own split rule (the first user content past the
 * share) places the split.
 */
async function compressToTarget(ctx: PolicyContext, params: PolicyParams, trimmed: PretrimResult, head: string, maxChars: number): Promise<PolicyDecision> {
  const kept = (x: number) => {
    const split = findCompressSplitPoint(trimmed.items, 1 - x / FRACTION_STEPS);
    if (split === 0) return ctx.prefixTokens;
    const tailStart = split < trimmed.items.length ? trimmed.items[split]!.origin : ctx.cut;
    const saved = keptEditsOf(trimmed, tailStart).reduce((sum, e) => (ctx.protect.messages.has(e.message) ? sum : sum + e.tokensBefore - e.tokensAfter), 0);
    return keptBySplit(ctx, tailStart) - saved;
  };
  const { decision, fit } = await summarizeWithinTarget(
    ctx,
    (reserve) => fitSummaryTarget(ctx, 0, FRACTION_STEPS, kept, ACK, reserve),
    (f) => compress(ctx, trimmed, f.x / FRACTION_STEPS, head, f),
  );
  const reported = reportSummaryTarget(
    ctx,
    decision,
    `preserveFraction = ${fit.x / FRACTION_STEPS}`,
    keptTooLarge("the system prompt and the protected latest turn", fit),
  );
  const report = reported.details?.target as TargetReport | undefined;
  if (!report || report.reached || decision.plan.summary) return reported;
  return truncateToTarget(ctx, params, maxChars, head, reported);
}

/**
 * When no split compresses (a single-request run has no user content to split at, or the snapshot
 * would inflate), Gemini's history is its pre-trimmed one: under a harness target the
 * function-response budget is the largest whose truncation of older tool outputs (newest kept in
 * full) fits the target. The closer of this and the split's attempt is returned.
 */
function truncateToTarget(ctx: PolicyContext, params: PolicyParams, maxChars: number, head: string, attempt: PolicyDecision): PolicyDecision {
  const system = preambleSystem(ctx);
  const contents = Array.from({ length: ctx.cut }, (_, m) => m).filter((m) => !system.has(m));
  const items = trimItemsFrom(ctx.session.messages, contents, ctx.index);
  const outputs = responseSizes(ctx, items, maxChars);
  const savedAt = (budget: number) => {
    let used = 0;
    let saved = 0;
    for (const o of outputs) {
      if (used + o.tokens <= budget || o.cutTokens === undefined) used += o.tokens;
      else {
        used += o.cutTokens;
        if (!ctx.protect.messages.has(o.message)) saved += o.tokens - o.cutTokens;
      }
    }
    return saved;
  };
  const own = numParam(params, "functionResponseBudget");
  const budget = largestFitting(0, own, (b) => ctx.prefixTokens - savedAt(b), ctx.targetTokens!) ?? 0;
  const trimmed = runPretrim(items, [capToolResponseBudget({ budget, maxChars, headShare: 0.2 })], ctx.tokenizer);
  const decision = preTrimmedView(ctx, trimmed, [
    head,
    ...attempt.log.slice(0, -1),
    `no split fits the harness target: the history is pre-trimmed with a function-response budget of ${budget} tokens`,
    ...trimmed.log,
  ]);
  const estimated = ctx.prefixTokens - savedAt(budget);
  const previous = (attempt.details?.target as TargetReport).estimated;
  if (estimated >= previous) return attempt;
  return withTargetReport(
    ctx,
    decision,
    estimated,
    `functionResponseBudget = ${budget} tokens (no split point)`,
    "every older tool output is already cut to its head and tail; the rest is the newest outputs, the protected latest turn and text Gemini never truncates",
  );
}

/** Tool outputs newest → oldest with their tokens and, when longer than `maxChars`, the tokens of their cut form. */
function responseSizes(ctx: PolicyContext, items: readonly TrimItem[], maxChars: number): { message: number; tokens: number; cutTokens?: number }[] {
  const out: { message: number; tokens: number; cutTokens?: number }[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    for (const p of [...item.results.keys()].sort((a, b) => b - a)) {
      const tokens = item.results.get(p)!.tokens;
      const content = partContent(item.message.parts[p]!);
      if (content.length <= maxChars) {
        out.push({ message: item.origin, tokens });
        continue;
      }
      const cut = headTailTooLarge(content, maxChars, sidecarRef(spill(item.results.get(p)!.id, content).sha256), 0.2);
      out.push({ message: item.origin, tokens, cutTokens: ctx.tokenizer.count(cut) });
    }
  }
  return out;
}

/** findCompressSplitPoint over the items, with JSON.stringify lengths of {role, parts}. */
export function findCompressSplitPoint(items: readonly TrimItem[], fraction: number): number {
  const chars = items.map((i) => jsonLength(i.message));
  const target = chars.reduce((a, b) => a + b, 0) * fraction;
  let lastSplit = 0;
  let cumulative = 0;
  for (let i = 0; i < items.length; i++) {
    const { role, parts } = items[i]!.message;
    if (role === "user" && !parts.some((p) => p.type === "tool_result")) {
      if (cumulative >= target) return i;
      lastSplit = i;
    }
    cumulative += chars[i]!;
  }
  const last = items.at(-1)?.message;
  if (last?.role === "assistant" && !last.parts.some((p) => p.type === "tool_call")) return items.length;
  return lastSplit;
}

const jsonLengths = new WeakMap<Message, number>();
function jsonLength(message: Message): number {
  let n = jsonLengths.get(message);
  if (n === undefined) jsonLengths.set(message, (n = JSON.stringify({ role: message.role, parts: message.parts }).length));
  return n;
}

function keptEditsOf(trimmed: PretrimResult, from: number): KeptEdit[] {
  return trimmed.edits
    .filter((e) => e.message >= from)
    .map((e) => ({ ...e, rule: BUDGET_RULE, reason: "older tool output past the 50,000-token function-response budget, cut to its head and tail" }));
}

/** The history after pre-trim only: every budget truncation outside the protected turn, no summary. */
function preTrimmedView(ctx: PolicyContext, trimmed: PretrimResult, log: string[]): PolicyDecision {
  const plan = emptyPlan();
  const edits = trimmed.edits.filter((e) => !ctx.protect.messages.has(e.message));
  for (const e of edits) plan.parts.set(partKey(e), { op: "replace", text: e.text, action: "truncate" });
  const actions = edits.map((e) => ({
    target: e.target,
    action: "truncate" as const,
    reason: "older tool output past the 50,000-token function-response budget",
    rule: BUDGET_RULE,
    tokensBefore: e.tokensBefore,
    tokensAfter: e.tokensAfter,
  }));
  return { plan, actions, sidecars: trimmed.sidecars, log };
}
