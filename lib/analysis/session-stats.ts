import type { ContextIndex } from "../compaction/context/objects";
import type { Session, Usage } from "../trace/model";
import { recordCount } from "../trace/source-records";

/** Counts shown in the traces table and printed by `tracefold inspect`. */
export interface SessionStats {
  messages: number;
  /**
   * Source records the messages were made from: equal to `messages` except where the format writes
   * one message as several records (a Claude Code API response, one record per content block).
   */
  records: number;
  toolCalls: number;
  toolResults: number;
  nativeCompactions: number;
  /** Estimated tokens of the whole session with the index's tokenizer. */
  tokens: number;
  /**
   * The largest prompt the provider reported (input + cached + cache-write tokens of one call), or
   * the session total when the format only records totals. Shown beside the estimate.
   */
  providerInputTokens?: number;
  /** Normalised tool names used, most frequent first. */
  tools: string[];
}

export function sessionStats(session: Session, index: ContextIndex): SessionStats {
  let toolCalls = 0;
  let toolResults = 0;
  let records = 0;
  let providerInputTokens: number | undefined;
  for (const message of session.messages) {
    records += recordCount(message);
    for (const part of message.parts) {
      if (part.type === "tool_call") toolCalls++;
      else if (part.type === "tool_result") toolResults++;
    }
    const prompt = promptTokens(message.usage);
    if (prompt !== undefined && (providerInputTokens === undefined || prompt > providerInputTokens)) providerInputTokens = prompt;
  }
  providerInputTokens ??= promptTokens(session.usage);
  const toolCounts = new Map<string, number>();
  for (const object of index.objects) if (object.tool) toolCounts.set(object.tool, (toolCounts.get(object.tool) ?? 0) + 1);
  return {
    messages: session.messages.length,
    records,
    toolCalls,
    toolResults,
    nativeCompactions: session.compactions.length,
    tokens: index.prefixTokens[session.messages.length] ?? 0,
    ...(providerInputTokens !== undefined ? { providerInputTokens } : {}),
    tools: [...toolCounts.entries()].sort((a, b) => b[1] - a[1]).map(([tool]) => tool),
  };
}

function promptTokens(usage: Usage | undefined): number | undefined {
  if (!usage || usage.inputTokens === undefined) return undefined;
  return usage.inputTokens + (usage.cachedInputTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
}
