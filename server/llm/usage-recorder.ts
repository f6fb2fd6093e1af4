import type { LlmClient, LlmPurpose, LlmResponse } from "../../lib/llm/types";
import { EMPTY_USAGE, LlmUsageSchema, type LlmUsage } from "../../lib/llm/usage";

/** The usage shape (calls, tokens, cost per purpose) lives in lib/llm/usage.ts: the CLI's report prints it too. */
export { LlmUsageSchema, PurposeUsageSchema, type LlmUsage, type PurposeUsage } from "../../lib/llm/usage";

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
    const entry = (usage[purpose] ??= { ...EMPTY_USAGE });
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
