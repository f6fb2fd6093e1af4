import type { LlmResponse } from "../../lib/llm/types";
import type { LlmConfig } from "./config";

/**
 * What one call cost in USD from its reported usage and the endpoint's prices (USD per million
 * tokens): uncached input at the input price, cached input at the cached price (else the input
 * price), output at the output price. Undefined when the endpoint has no input and output price or
 * the provider reported no usage: an unknown cost is never guessed as zero.
 */
export function callCost(
  usage: Pick<LlmResponse, "inputTokens" | "outputTokens" | "cachedInputTokens">,
  prices: Pick<LlmConfig, "priceInput" | "priceOutput" | "priceCachedInput">,
): number | undefined {
  if (prices.priceInput === undefined || prices.priceOutput === undefined) return undefined;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens ?? 0);
  const uncached = (usage.inputTokens ?? 0) - cached;
  const micro = uncached * prices.priceInput + cached * (prices.priceCachedInput ?? prices.priceInput) + (usage.outputTokens ?? 0) * prices.priceOutput;
  return micro / 1e6;
}
