import { z } from "zod";
import type { LlmClient, LlmPurpose, LlmResponse } from "../../lib/llm/types";

/**
 * What a piece of work (an evaluation run) spent on model calls, per purpose: calls, the
 * provider-reported tokens (cached input included) and the cost in USD of the calls whose endpoint
 * has prices (`unpricedCalls` counts the others, so a partial sum is never shown as the whole).
 * Failed calls report no usage and are not counted.
 */
export const PurposeUsageSchema = z.object({
  calls: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  costUsd: z.number().nonnegative(),
  unpricedCalls: z.number().int().nonnegative(),
});
export type PurposeUsage = z.infer<typeof PurposeUsageSchema>;

export const LlmUsageSchema = z.partialRecord(z.enum(["planner", "summarizer", "judge", "ab-judge", "rubric", "connection-test"]), PurposeUsageSchema);
export type LlmUsage = z.infer<typeof LlmUsageSchema>;

/** Stored usage (JSON text or null) read back; anything unreadable starts from nothing. */
export function parseLlmUsage(text: string | null | undefined): LlmUsage {
  if (!text) return {};
  try {
    const parsed = LlmUsageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export interface UsageRecorder {
  /** The client to hand to the work: every answered call is added to the usage. */
  client: LlmClient;
  /** A copy of the usage so far. */
  snapshot(): LlmUsage;
}

/** Wraps `client` to add every answer's usage to `initial` (a resumed run keeps counting). */
export function recordUsage(client: LlmClient, initial: LlmUsage = {}): UsageRecorder {
  const usage: LlmUsage = structuredClone(initial);
  const add = (purpose: LlmPurpose, response: LlmResponse) => {
    const entry = (usage[purpose] ??= { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 });
    entry.calls += 1;
    entry.inputTokens += response.inputTokens ?? 0;
    entry.cachedInputTokens += response.cachedInputTokens ?? 0;
    entry.outputTokens += response.outputTokens ?? 0;
    if (response.costUsd === undefined) entry.unpricedCalls += 1;
    else entry.costUsd += response.costUsd;
  };
  return {
    client: {
      id: client.id,
      ...(client.idFor ? { idFor: client.idFor.bind(client) } : {}),
      async complete(request) {
        const response = await client.complete(request);
        add(request.purpose, response);
        return response;
      },
    },
    snapshot: () => structuredClone(usage),
  };
}
