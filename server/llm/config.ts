import { z } from "zod";
import { processEnv } from "@/server/env";

/**
 * Configuration of one model endpoint (provider, URL, model, key, limits). Read from the
 * environment here; an admin can instead store endpoints in the studio (stored-settings.ts),
 * and effective-config.ts decides which applies to which purpose. The API key
 * stays in this process: it is sent only to the configured endpoint and never appears in errors,
 * logs or client ids.
 *
 *   TRACEFOLD_LLM_PROVIDER    one of LLM_PROVIDERS (unset: LLM features are off)
 *   TRACEFOLD_LLM_BASE_URL    default: the provider's public API (DEFAULT_BASE_URLS)
 *   TRACEFOLD_LLM_API_KEY     required for anthropic, azure and google; optional for local servers
 *   TRACEFOLD_LLM_MODEL       model name (Azure: the deployment name; Bedrock: the model id)
 *   TRACEFOLD_LLM_REASONING   auto | on | off — whether the model is a reasoning model (default auto:
 *                             gpt-5*, o1/o3/o4* are). Reasoning models get no temperature and their
 *                             output limit as max_completion_tokens.
 *   TRACEFOLD_LLM_TIMEOUT_MS  per-attempt timeout (default 60000)
 *   TRACEFOLD_LLM_MAX_RETRIES retries on 408/429/5xx/network errors (default 2)
 *   TRACEFOLD_LLM_PRICE_INPUT, _PRICE_OUTPUT, _PRICE_CACHED_INPUT
 *                             USD per million tokens; with input and output set, every answer
 *                             carries its cost (cached input at its own price, else the input price)
 *   TRACEFOLD_LLM_<PURPOSE>_* the same names with PLANNER, SUMMARIZER, JUDGE or AB_JUDGE: that
 *                             purpose's endpoint (see purposeEnv in effective-config.ts)
 */
export const LLM_PROVIDERS = ["openai", "openai-responses", "anthropic", "openai-compatible", "azure", "amazon-bedrock", "google"] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** How each provider is labelled on the settings page. */
export const PROVIDER_LABELS: Record<LlmProvider, string> = {
  openai: "OpenAI — Chat Completions",
  "openai-responses": "OpenAI — Responses API",
  anthropic: "Anthropic — Messages",
  "openai-compatible": "OpenAI-compatible server (vLLM, Ollama, LiteLLM…)",
  azure: "Azure OpenAI",
  "amazon-bedrock": "Amazon Bedrock — Converse",
  google: "Google Gemini",
};

export const DEFAULT_BASE_URLS: Record<LlmProvider, string> = {
  openai: "https://api.openai.com/v1",
  "openai-responses": "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
  "openai-compatible": "http://127.0.0.1:11434/v1",
  azure: "https://example.openai.azure.com/openai",
  "amazon-bedrock": "https://bedrock-runtime.us-east-1.amazonaws.com",
  google: "https://generativelanguage.googleapis.com/v1beta",
};

/** Providers whose calls fail without a key (Bedrock can also sign with the AWS_* environment). */
const KEY_REQUIRED: readonly LlmProvider[] = ["anthropic", "azure", "google"];
export function providerNeedsKey(provider: LlmProvider): boolean {
  return KEY_REQUIRED.includes(provider);
}

export const REASONING_MODES = ["auto", "on", "off"] as const;
export type ReasoningMode = (typeof REASONING_MODES)[number];

const price = z.coerce.number({ error: "must be a price in USD per million tokens" }).nonnegative("must be a price in USD per million tokens").max(10_000);

export const LlmConfigSchema = z
  .object({
    provider: z.enum(LLM_PROVIDERS),
    baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    apiKey: z.string().min(1).optional(),
    model: z.string().min(1, "is required"),
    reasoning: z.enum(REASONING_MODES, { error: "must be auto, on or off" }).default("auto"),
    timeoutMs: z.coerce.number({ error: "must be a number of milliseconds" }).int().positive().max(600_000).default(60_000),
    maxRetries: z.coerce.number({ error: "must be a whole number" }).int().min(0).max(8).default(2),
    priceInput: price.optional(),
    priceOutput: price.optional(),
    priceCachedInput: price.optional(),
  })
  .refine((c) => !providerNeedsKey(c.provider) || c.apiKey !== undefined, { path: ["apiKey"], message: "is required for this provider", when: () => true });
export type LlmConfig = z.infer<typeof LlmConfigSchema>;

/** Every problem with the LLM settings, named by environment variable (values are never echoed). */
export class LlmConfigError extends Error {
  readonly code = "llm_config";
  constructor(readonly problems: string[]) {
    super(`invalid LLM configuration: ${problems.join("; ")}`);
    this.name = "LlmConfigError";
  }
}

const SUFFIXES: Record<string, string> = {
  provider: "PROVIDER",
  baseUrl: "BASE_URL",
  apiKey: "API_KEY",
  model: "MODEL",
  reasoning: "REASONING",
  timeoutMs: "TIMEOUT_MS",
  maxRetries: "MAX_RETRIES",
  priceInput: "PRICE_INPUT",
  priceOutput: "PRICE_OUTPUT",
  priceCachedInput: "PRICE_CACHED_INPUT",
};

/**
 * The endpoint configured by the variables starting with `prefix` (default `TRACEFOLD_LLM_`), or
 * undefined when its PROVIDER is unset. Throws LlmConfigError naming every bad variable.
 */
export function readLlmConfig(env: Record<string, string | undefined> = processEnv(), prefix = "TRACEFOLD_LLM_"): LlmConfig | undefined {
  const read = (field: string) => env[`${prefix}${SUFFIXES[field]}`]?.trim() || undefined;
  const provider = read("provider");
  if (!provider) return undefined;
  const known = (LLM_PROVIDERS as readonly string[]).includes(provider);
  const raw = {
    provider,
    baseUrl: read("baseUrl") ?? (known ? DEFAULT_BASE_URLS[provider as LlmProvider] : undefined),
    apiKey: read("apiKey"),
    model: read("model") ?? "",
    reasoning: read("reasoning"),
    timeoutMs: read("timeoutMs"),
    maxRetries: read("maxRetries"),
    priceInput: read("priceInput"),
    priceOutput: read("priceOutput"),
    priceCachedInput: read("priceCachedInput"),
  };
  // Unset variables are absent keys (not `undefined` values) in the parsed configuration.
  const parsed = LlmConfigSchema.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)));
  if (parsed.success) return parsed.data;
  throw new LlmConfigError(parsed.error.issues.map((i) => `${prefix}${SUFFIXES[String(i.path[0])] ?? String(i.path[0])} ${i.message}`));
}

/**
 * How many evaluation units may call models at once (TRACEFOLD_LLM_CONCURRENCY, 1–64, default 4):
 * an endpoint answers in seconds, so units overlap; results are stored in plan order all the same.
 */
export function readLlmConcurrency(env: Record<string, string | undefined> = processEnv()): number {
  const raw = env.TRACEFOLD_LLM_CONCURRENCY?.trim();
  if (!raw) return 4;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 64) throw new LlmConfigError([`TRACEFOLD_LLM_CONCURRENCY must be a whole number from 1 to 64`]);
  return value;
}
