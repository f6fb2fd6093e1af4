import type { Sidecar } from "../../projection/types";
import { headTailTooLarge, sidecarRef } from "./text";
import { partContent, rewritePart, spill, type PretrimStep, type TrimEdit, type TrimItem } from "./types";

export interface ToolResponseBudgetOptions {
  /** Tokens of tool output kept in full, newest first (Gemini CLI COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET = 50,000). */
  budget: number;
  /** Characters an over-budget output is cut to (Gemini CLI getTruncateToolOutputThreshold, ≤ 40,000). */
  maxChars: number;
  /** Share of `maxChars` kept from the head; the rest comes from the tail (Gemini CLI: 20/80). */
  headShare: number;
}

export const GEMINI_TOOL_RESPONSE_BUDGET: ToolResponseBudgetOptions = { budget: 50_000, maxChars: 40_000, headShare: 0.2 };

/**
 * Seed 001 pre-trim move 4: "hard-capping the total token budget for tool-response content (e.g.
 * 50K tokens)". Replays Gemini CLI's `truncateHistoryToBudget`: walk items and parts newest → oldest
 * adding each tool output's tokens; once the running total would pass the budget, the output is
 * spilled and replaced by the 20/80 head/tail "Output too large…" form, and the replacement's own
 * tokens count toward the budget.
 */
export function capToolResponseBudget(options: ToolResponseBudgetOptions = GEMINI_TOOL_RESPONSE_BUDGET): PretrimStep {
  return (items, tokenizer) => {
    const edits: TrimEdit[] = [];
    const sidecars: Sidecar[] = [];
    const out: TrimItem[] = [...items];
    let used = 0;
    for (let i = out.length - 1; i >= 0; i--) {
      const parts = [...out[i]!.results.keys()].sort((a, b) => b - a);
      for (const p of parts) {
        const tokens = out[i]!.results.get(p)!.tokens;
        const content = partContent(out[i]!.message.parts[p]!);
        if (used + tokens <= options.budget || content.length <= options.maxChars) {
          used += tokens;
          continue;
        }
        const sidecar = spill(out[i]!.results.get(p)!.id, content);
        const text = headTailTooLarge(content, options.maxChars, sidecarRef(sidecar.sha256), options.headShare);
        const rewritten = rewritePart(out[i]!, p, text, tokenizer, "pretrim/cap-tool-response-budget");
        out[i] = rewritten.item;
        edits.push(rewritten.edit);
        sidecars.push(sidecar);
        used += rewritten.edit.tokensAfter;
      }
    }
    const saved = edits.reduce((sum, e) => sum + e.tokensBefore - e.tokensAfter, 0);
    return {
      items: out,
      edits,
      sidecars,
      log: [
        `pre-trim cap-tool-response-budget: ${options.budget} tokens of tool output kept newest-first; ${edits.length} older outputs cut to ${options.maxChars} chars (${saved} tokens saved)`,
      ],
    };
  };
}
