import { toAnthropicMessages, toOpenAiMessages } from "./provider";
import type { ViewMessage } from "./types";

/**
 * What each provider projection had to change to make a view acceptable (`lib/compaction/projection/provider.ts`
 * normalisation notes: a call without a result removed, a result without a call turned into text, a
 * user placeholder inserted…). A view of a well-formed trace that no policy edited needs none, so a
 * non-empty list points at an importer or a policy that broke the conversation's shape.
 */
export interface ProviderFixes {
  openai: string[];
  anthropic: string[];
}

/** The fixes and the message counts of both projections of `view`. */
export function projectForProviders(view: ViewMessage[]): { fixes: ProviderFixes; openAiMessages: number; anthropicMessages: number } {
  const fixes: ProviderFixes = { openai: [], anthropic: [] };
  const openAiMessages = toOpenAiMessages(view, (note) => fixes.openai.push(note)).length;
  const anthropicMessages = toAnthropicMessages(view, (note) => fixes.anthropic.push(note)).messages.length;
  return { fixes, openAiMessages, anthropicMessages };
}
