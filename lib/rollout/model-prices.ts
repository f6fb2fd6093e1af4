import type { Prices } from "./billed-cost";

/**
 * List prices (USD per million tokens) of common models, for the rollout's billed cost. A model is
 * matched by the longest key its name starts with, after dropping a provider prefix
 * (`anthropic/`, `openai:`…). A session whose model is not here is left unpriced — never priced at
 * someone else's rates — unless the caller overrides (`--prices`).
 *
 * Cache terms follow each provider's scheme: Anthropic bills 5-minute cache writes at 1.25× input
 * and reads at 0.1×; OpenAI and Google charge no write surcharge (writes at the input price) and
 * discount reads. Prices as published by the providers (2025–2026) (Gemini Pro at the ≤200K-token
 * tier); check them before quoting a bill.
 */
export const MODEL_PRICES: Readonly<Record<string, Prices>> = {
  "claude-opus-4-6": { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 },
  "claude-opus-4-5": { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 },
  "claude-opus-4": { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  "claude-sonnet-4": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "claude-3-7-sonnet": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "claude-3-5-sonnet": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "claude-haiku-4-5": { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
  "claude-3-5-haiku": { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 },
  "gpt-5-nano": { input: 0.05, cachedInput: 0.005, cacheWrite: 0.05, output: 0.4 },
  "gpt-5-mini": { input: 0.25, cachedInput: 0.025, cacheWrite: 0.25, output: 2 },
  "gpt-5": { input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10 },
  "gpt-4.1-nano": { input: 0.1, cachedInput: 0.025, cacheWrite: 0.1, output: 0.4 },
  "gpt-4.1-mini": { input: 0.4, cachedInput: 0.1, cacheWrite: 0.4, output: 1.6 },
  "gpt-4.1": { input: 2, cachedInput: 0.5, cacheWrite: 2, output: 8 },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, cacheWrite: 0.15, output: 0.6 },
  "gpt-4o": { input: 2.5, cachedInput: 1.25, cacheWrite: 2.5, output: 10 },
  "o4-mini": { input: 1.1, cachedInput: 0.275, cacheWrite: 1.1, output: 4.4 },
  o3: { input: 2, cachedInput: 0.5, cacheWrite: 2, output: 8 },
  "gemini-2.5-pro": { input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10 },
  "gemini-2.5-flash-lite": { input: 0.1, cachedInput: 0.01, cacheWrite: 0.1, output: 0.4 },
  "gemini-2.5-flash": { input: 0.3, cachedInput: 0.03, cacheWrite: 0.3, output: 2.5 },
};

/** How a rollout prices sessions: by each session's own model, or every session at one price. */
export type PriceChoice = { kind: "by-model"; table: Readonly<Record<string, Prices>> } | { kind: "fixed"; prices: Prices; label: string };

export const DEFAULT_PRICE_CHOICE: PriceChoice = { kind: "by-model", table: MODEL_PRICES };

/** The table key a model name falls under (longest matching prefix), or undefined. */
export function priceKeyOf(model: string, table: Readonly<Record<string, Prices>> = MODEL_PRICES): string | undefined {
  const name = model
    .trim()
    .toLowerCase()
    .replace(/^[a-z0-9-]+[/:]/, "")
    .replace(/^(us|eu|apac)\.anthropic\./, "")
    .replace(/^anthropic\./, "");
  let best: string | undefined;
  for (const key of Object.keys(table)) if (name.startsWith(key) && (!best || key.length > best.length)) best = key;
  return best;
}

/** The prices of a session whose model is `model` under `choice`: the price and what it is named, or undefined when unpriced. */
export function pricesFor(model: string | undefined, choice: PriceChoice): { prices: Prices; label: string } | undefined {
  if (choice.kind === "fixed") return { prices: choice.prices, label: choice.label };
  if (!model) return undefined;
  const key = priceKeyOf(model, choice.table);
  return key ? { prices: choice.table[key]!, label: key } : undefined;
}
