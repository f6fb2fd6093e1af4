import { z } from "zod";
import { plural } from "../util/plural";

/**
 * What a piece of work (an evaluation run, a `tracefold eval`) spent on model calls, per purpose:
 * calls, the provider-reported tokens (cached input included in input) and the cost in USD of the
 * calls whose endpoint has prices — `unpricedCalls` counts the others, so a partial sum is never
 * shown as the whole. Failed calls report no usage and are not counted. The same shape is stored on
 * a run (`EvalRun.llmUsage`), shown on the run page and printed as `llmUsage` by `tracefold eval --json`.
 */
export const PurposeUsageSchema = z.strictObject({
  calls: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative().describe("provider-reported input tokens, cached ones included"),
  cachedInputTokens: z.number().nonnegative().describe("of inputTokens, those read from the provider's prompt cache"),
  outputTokens: z.number().nonnegative(),
  costUsd: z.number().nonnegative().describe("the priced calls' cost in USD"),
  unpricedCalls: z.number().int().nonnegative().describe("calls to an endpoint with no prices set (not in costUsd)"),
});
export type PurposeUsage = z.infer<typeof PurposeUsageSchema>;

export const LLM_USAGE_PURPOSES = ["planner", "summarizer", "judge", "ab-judge", "rubric", "connection-test"] as const;
export const LlmUsageSchema = z.partialRecord(z.enum(LLM_USAGE_PURPOSES), PurposeUsageSchema);
export type LlmUsage = z.infer<typeof LlmUsageSchema>;

/** Display names of the purposes (the run page's rows, the CLI's table). */
export const USAGE_PURPOSE_LABELS: Record<string, string> = {
  planner: "Planner",
  summarizer: "Summarizer",
  rubric: "Rubric",
  judge: "Judge",
  "ab-judge": "A/B judge",
  "connection-test": "Connection test",
};

export const EMPTY_USAGE: PurposeUsage = { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 };

/** The sum of several purposes' usage. */
export function totalUsage(entries: readonly PurposeUsage[]): PurposeUsage {
  return entries.reduce(
    (sum, e) => ({
      calls: sum.calls + e.calls,
      inputTokens: sum.inputTokens + e.inputTokens,
      cachedInputTokens: sum.cachedInputTokens + e.cachedInputTokens,
      outputTokens: sum.outputTokens + e.outputTokens,
      costUsd: sum.costUsd + e.costUsd,
      unpricedCalls: sum.unpricedCalls + e.unpricedCalls,
    }),
    EMPTY_USAGE,
  );
}

/** USD with enough digits for cheap calls; a partly priced sum says it is a lower bound, an unpriced one says why it has none. */
export function formatUsageCost(entry: PurposeUsage): string {
  if (entry.unpricedCalls === entry.calls) return "— (no prices set)";
  const usd = `$${entry.costUsd < 1 ? entry.costUsd.toFixed(4) : entry.costUsd.toFixed(2)}`;
  return entry.unpricedCalls > 0 ? `≥ ${usd} (${plural(entry.unpricedCalls, "call")} unpriced)` : usd;
}
