import type { LlmConfig } from "./config";

/**
 * Whether an endpoint's model is a reasoning model. OpenAI's reasoning models (o1, o3, o4-mini,
 * gpt-5 and their dated variants) answer HTTP 400 to `temperature` and to `max_tokens` (they want
 * `max_completion_tokens`). `reasoning: "auto"` recognises them by name; an Azure deployment or a
 * local server may name them anything, so `on`/`off` decide explicitly.
 */
const REASONING_NAME = /^(?:[\w.-]+\/)?(?:o\d+(?:$|[-_.])|gpt-5(?!-chat)(?:$|[-_.\d]))/i;

export function isReasoningModel(config: Pick<LlmConfig, "model" | "reasoning">): boolean {
  if (config.reasoning === "on") return true;
  if (config.reasoning === "off") return false;
  return REASONING_NAME.test(config.model.trim());
}
