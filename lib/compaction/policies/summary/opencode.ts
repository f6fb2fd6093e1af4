import type { Sidecar } from "../../projection/types";
import { boolParam, numParam } from "../params";
import { OPENCODE_TOOL_OUTPUT_CAP, capItemLength } from "../pretrim/cap-item-length";
import { markOldToolOutputsCleared, OPENCODE_PRUNE } from "../pretrim/mark-old-tool-outputs-cleared";
import { replayTrimmed, runPretrim, trimItemsFrom, type PretrimStep } from "../pretrim/types";
import type { Policy, PolicyContext, PolicyDecision, PolicyParams } from "../types";
import { compactWithSummary } from "./collapse";
import { fitSummaryTarget, keptBySplit, keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { safeBoundaries, turnStarts } from "./timeline";

/** compaction-harnesses.md §3–4 (opencode session/compaction.ts after PR #21822, overflow.ts, provider/transform.ts). */
export const OPENCODE = {
  compactionBuffer: 20_000,
  outputTokenMax: 32_000,
  tailTurns: 2,
  preserveShare: 0.25,
  minPreserveTokens: 2_000,
  maxPreserveTokens: 8_000,
} as const;

const INSTRUCTIONS =
  "Summarize everything before the retained recent turns under the headings Goal; Constraints & Preferences; Progress (Done / In Progress / Blocked); Key Decisions; Next Steps; Critical Context; Relevant Files. Keep every heading even when it is empty, write short bullets, copy paths, symbols, commands, errors and URLs exactly, and write notes about the work, not about summarizing.";

/** usable = context − maxOutputTokens − reserved, reserved = min(COMPACTION_BUFFER, maxOutputTokens) (overflow.ts). */
function usable(ctx: Pick<PolicyContext, "window">, params: PolicyParams): number {
  const maxOutput = numParam(params, "maxOutputTokens");
  return Math.max(0, ctx.window - maxOutput - Math.min(OPENCODE.compactionBuffer, maxOutput));
}

/**
 * OpenCode session compaction in its 8K-tail era (PR #21822). Trigger (overflow.ts): after an
 * assistant step, usage ≥ usable. Prune: newest → oldest past the 2 newest user turns, tool outputs
 * beyond PRUNE_PROTECT = 40,000 tokens are cleared to "[Old tool result content cleared]" when they
 * exceed PRUNE_MINIMUM = 20,000 (skill outputs exempt). Tail (`select`): the last tail_turns = 2
 * turns newest → oldest while they fit min(8,000, max(2,000, 25% of usable)); the first that does
 * not fit keeps its longest suffix within the rest (`splitTurn`, at safe boundaries here). The head
 * is summarized (tool outputs serialised at 2,000 chars) into a summary placed before the tail.
 * Harness target: the tail budget (MAX_PRESERVE_RECENT_TOKENS) is derived from the target and
 * tail_turns stops limiting (it would otherwise stop the tail from using that budget); `select`
 * still walks whole turns newest first and splits the first that does not fit at a safe boundary.
 */
export const opencodePolicy: Policy = {
  id: "opencode",
  family: "harness",
  source: "compaction-harnesses.md §3 — anomalyco/opencode session/compaction.ts (PR #21822): tail 2 turns within clamp(25% usable, 2K, 8K); prune 40K/20K",
  description: "OpenCode: clears old tool outputs past a 40K protect window, keeps the last 2 turns within an 8K tail budget and summarizes the head.",
  params: [
    {
      name: "maxOutputTokens",
      default: OPENCODE.outputTokenMax,
      description: "The model's output limit (capped at OUTPUT_TOKEN_MAX = 32,000); reserved = min(20,000, this).",
    },
    { name: "tailTurns", default: OPENCODE.tailTurns, description: "compaction.tail_turns: newest turns considered for the verbatim tail." },
    { name: "maxPreserveTokens", default: OPENCODE.maxPreserveTokens, description: "MAX_PRESERVE_RECENT_TOKENS (8,000 after PR #21822; 15,000 later)." },
    { name: "prune", default: true, description: "compaction.prune: clear old tool outputs before summarizing." },
  ],
  fires: (ctx, params) => ctx.window > 0 && ctx.prefixTokens >= usable(ctx, params),
  async decide(ctx, params) {
    const room = usable(ctx, params);
    const budget = Math.min(numParam(params, "maxPreserveTokens"), Math.max(OPENCODE.minPreserveTokens, Math.floor(OPENCODE.preserveShare * room)));
    const turns = Math.max(0, Math.floor(numParam(params, "tailTurns")));
    const head = `usable ${room} tokens (window ${ctx.window} − output ${numParam(params, "maxOutputTokens")} − reserved)`;
    if (ctx.targetTokens === undefined) return compactHead(ctx, params, turns, budget, head);
    const all = turnStarts(ctx).length;
    const fitFor = (reserve: number) => fitSummaryTarget(ctx, 0, ctx.prefixTokens, (b) => keptBySplit(ctx, selectTail(ctx, all, b, [])), undefined, reserve);
    const { decision, fit } = await summarizeWithinTarget(ctx, fitFor, (f) => compactHead(ctx, params, all, f.x, head, f));
    return reportSummaryTarget(
      ctx,
      decision,
      `tail budget = ${fit.x} tokens over all ${all} turns`,
      keptTooLarge("the system prompt and the protected latest turn", fit),
    );
  },
};

/** OpenCode's compaction with a tail of `turns` turns within `budget` (and, under a harness target, the fitted summary cap). */
function compactHead(ctx: PolicyContext, params: PolicyParams, turns: number, budget: number, head: string, fit?: SummaryFit): Promise<PolicyDecision> {
  const log = [`${head}; tail budget ${budget}`];
  const tailStart = selectTail(ctx, turns, budget, log);
  const pretrim: PretrimStep[] = [];
  const sidecars: Sidecar[] = [];
  if (boolParam(params, "prune")) {
    const everything = Array.from({ length: ctx.cut }, (_, m) => m);
    const pruned = runPretrim(trimItemsFrom(ctx.session.messages, everything, ctx.index), [markOldToolOutputsCleared(OPENCODE_PRUNE)], ctx.tokenizer);
    log.push(...pruned.log);
    pretrim.push(replayTrimmed(pruned, "tool outputs cleared by the prune above"));
    sidecars.push(...pruned.sidecars);
  }
  pretrim.push(capItemLength(OPENCODE_TOOL_OUTPUT_CAP));
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart,
    pretrim,
    sidecars,
    instructions: INSTRUCTIONS,
    rule: "opencode/head",
    reason: "summarized: in the head before the retained tail",
    log,
  });
}

/** OpenCode `select`: whole newest turns within the budget, then the longest fitting suffix of the next. */
function selectTail(ctx: PolicyContext, limit: number, budget: number, log: string[]): number {
  const starts = turnStarts(ctx);
  if (limit <= 0 || starts.length === 0) return ctx.cut;
  const sums = ctx.index.prefixTokens;
  const first = Math.max(0, starts.length - limit);
  let total = 0;
  let keep: number | undefined;
  for (let i = starts.length - 1; i >= first; i--) {
    const start = starts[i]!;
    const end = starts[i + 1] ?? ctx.cut;
    const size = sums[end]! - sums[start]!;
    if (total + size <= budget) {
      total += size;
      keep = start;
      continue;
    }
    const safe = safeBoundaries(ctx.session.messages, ctx.cut);
    for (let s = start + 1; s < end; s++) {
      if (safe[s] && sums[end]! - sums[s]! <= budget - total) {
        keep = s;
        log.push(`turn at message ${start} (${size} tokens) does not fit the remaining ${budget - total}: kept its suffix from message ${s}`);
        break;
      }
    }
    break;
  }
  if (keep === undefined || keep === 0) {
    log.push("no tail fits the budget: the whole history is summarized (the protected latest turn stays)");
    return ctx.cut;
  }
  log.push(`tail starts at message ${keep}`);
  return keep;
}
