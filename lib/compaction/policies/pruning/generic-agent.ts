import { emptyPlan } from "../../projection/types";
import { capToTokens } from "../../summarizer/cap";
import { MESSAGE_OVERHEAD_TOKENS } from "../../../tokens/message-tokens";
import { boolParam, numParam } from "../params";
import type { Policy } from "../types";
import { projectedHistoryChars } from "./generic-agent/chars-cache";
import { buildHistory } from "./generic-agent/history";
import { recordEdits } from "./generic-agent/record-edits";
import { applyStage1 } from "./generic-agent/stage1-truncate";
import { compressEntries, lastPassEnd } from "./generic-agent/stage2-compress";
import { evictOldest, type EvictionResult } from "./generic-agent/stage3-evict";
import { evictToTarget, viewTokens } from "./generic-agent/stage3-evict-to-target";
import { withTargetReport } from "../shared/target";
import { buildAnchor } from "./generic-agent/stage4-anchor";

/**
 * GenericAgent's four-stage context management (seed 002 §2.3.4), replayed in GA's own unit —
 * characters of JSON-serialised messages against B = α·W (eq. 1):
 * 1. per-tool head/tail truncation of every tool output (Table 1 thresholds);
 * 2. tag-level compression every `interval` calls, the 10 newest messages exempt;
 * 3. when C_H > B: stricter compression (4 newest exempt), FIFO eviction below 60% of B, orphan
 *    clean-up;
 * 4. the working-memory anchor (20 one-line turn summaries, turn number, key_info) as the summary
 *    placed at the latest request — where GA attaches it to the user message.
 * Seed 002 gives the constants below; GA's HEAD has since moved some (interval 7, anchor 30 lines,
 * notes §7) — set the parameters to replay that version. The latest turn stays untouched.
 * Harness target (matched budgets): stages 1–2 as always; stage 3 runs when the view is over the
 * target and evicts oldest-first until the view, anchor included, fits it
 * (generic-agent/stage3-evict-to-target.ts) — GA's order, the target in place of keepRate × B.
 */
export const genericAgentPolicy: Policy = {
  id: "generic-agent",
  family: "seed-002",
  source: "seed 002 §2.3.4 (GenericAgent context truncation and compression, eq. 1, Table 1); notes/compaction-harnesses.md §7",
  description: "GenericAgent: per-tool output truncation, periodic tag compression, FIFO eviction below 60% of a 3-chars/token budget, working-memory anchor.",
  params: [
    { name: "alpha", default: 3, description: "Seed 002 eq. 1: chars per token; the budget is B = alpha × window characters." },
    { name: "interval", default: 5, description: "Seed 002 stage 2: the compression pass runs every this many model calls (GA HEAD: 7)." },
    { name: "keepRecent", default: 10, description: "Seed 002 stage 2: newest messages exempt from the regular pass." },
    { name: "strictKeepRecent", default: 4, description: "Seed 002 stage 3: newest messages exempt from the stricter pass." },
    { name: "keepRate", default: 0.6, description: "Seed 002 stage 3: evict until the history is below this share of B (GA trim_keep_rate)." },
    { name: "minKeptMessages", default: 9, description: "GA trim_messages_history: eviction stops when this many messages remain (len(post) > 9)." },
    { name: "anchorLines", default: 20, description: "Seed 002 stage 4: most recent one-line turn summaries in the anchor (GA HEAD: 30)." },
    { name: "anchorLineChars", default: 100, description: "Seed 002 stage 4: each turn summary is about this many characters." },
    {
      name: "anchorAlways",
      default: false,
      description: "Attach the anchor even when nothing was evicted (GA always does; off so replays of other harnesses' traces do not grow).",
    },
  ],
  fires: (ctx, params) =>
    projectedHistoryChars(ctx.session, ctx.index, ctx.cut, numParam(params, "interval"), numParam(params, "keepRecent")) >
    numParam(params, "alpha") * ctx.window,
  decide(ctx, params) {
    const budgetChars = numParam(params, "alpha") * ctx.window;
    const history = buildHistory(ctx);
    const charsBefore = history.chars;
    const truncated = applyStage1(ctx, history);
    const pass = lastPassEnd(history.entries, numParam(params, "interval"), numParam(params, "keepRecent"));
    const compressed = compressEntries(history, pass.end, "stage2-compress");
    const charsAfterStage2 = history.chars;
    const log = [
      `C_H ${charsBefore} chars, budget B = ${numParam(params, "alpha")} × ${ctx.window} = ${budgetChars} chars`,
      `stage 1 truncated ${truncated} tool outputs; stage 2 (last pass at call ${pass.call}) compressed ${compressed} parts in the ${pass.end} oldest messages → C_H ${charsAfterStage2}`,
    ];
    const anchorText = () => buildAnchor(ctx, { lines: numParam(params, "anchorLines"), lineChars: numParam(params, "anchorLineChars") });
    let eviction: EvictionResult | undefined;
    let estimated: number | undefined;
    if (ctx.targetTokens !== undefined) {
      // Harness target: stage 3 runs when the view is over the target, and evicts down to it.
      const anchorTokens = MESSAGE_OVERHEAD_TOKENS + ctx.tokenizer.count(capToTokens(anchorText(), ctx.summaryCap, (t) => ctx.tokenizer.count(t)));
      const options = {
        targetTokens: ctx.targetTokens,
        strictKeepRecent: numParam(params, "strictKeepRecent"),
        minKept: numParam(params, "minKeptMessages"),
        anchorTokens,
      };
      estimated = viewTokens(ctx, history);
      if (estimated > ctx.targetTokens) {
        const result = evictToTarget(ctx, history, options);
        eviction = result;
        estimated = result.tokens;
        log.push(
          `stage 3 (harness target ${ctx.targetTokens} tokens): strict pass compressed ${result.strictParts} parts; evicted ${result.evicted.length} messages → estimated view ${result.tokens} tokens; ${result.orphans.length} orphaned tool results dropped`,
        );
      } else log.push(`stage 3 not triggered: the view (${estimated} tokens) is within the harness target`);
    } else if (charsAfterStage2 > budgetChars) {
      eviction = evictOldest(ctx, history, {
        budgetChars,
        keepRate: numParam(params, "keepRate"),
        strictKeepRecent: numParam(params, "strictKeepRecent"),
        minKept: numParam(params, "minKeptMessages"),
      });
      log.push(
        `stage 3: C_H > B; strict pass compressed ${eviction.strictParts} parts; evicted ${eviction.evicted.length} messages (target < ${Math.round(eviction.targetChars)} chars) → C_H ${history.chars}; ${eviction.orphans.length} orphaned tool results dropped`,
      );
    } else log.push("stage 3 not triggered: C_H ≤ B");
    const plan = emptyPlan();
    const actions = recordEdits(ctx, history, eviction?.orphans ?? [], plan);
    const evicted = eviction?.evicted.length ?? 0;
    if (evicted > 0 || boolParam(params, "anchorAlways")) {
      plan.summary = { text: anchorText(), at: ctx.protect.latestRequest >= 0 ? ctx.protect.latestRequest : ctx.cut };
      log.push("stage 4: working-memory anchor attached at the latest request");
    }
    const decision = {
      plan,
      actions,
      log,
      details: { budgetChars, charsBefore, charsAfterStage2, charsAfter: history.chars, lastPassCall: pass.call, evictedMessages: eviction?.evicted ?? [] },
    };
    return withTargetReport(
      ctx,
      decision,
      estimated ?? ctx.prefixTokens,
      `eviction stops at the target instead of keepRate × B`,
      `GA never evicts the protected latest turn and keeps at least ${numParam(params, "minKeptMessages")} messages (minKeptMessages); stages 1–2 only shorten what stays`,
    );
  },
};
