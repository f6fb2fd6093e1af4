import { z } from "zod";

/**
 * Configuration of the one model endpoint the server talks to (planner, LLM summaries, judges).
 * Read from the environment here; an admin can instead store one in the studio (server/settings/
 * llm-settings.ts), and effective-config.ts decides which applies. The API key stays in this process: it is sent only in the
 * request headers to the configured endpoint and never appears in errors, logs or client ids.
 *
 *   TRACEFOLD_LLM_PROVIDER   openai | anthropic (unset: LLM features are off)
 *   TRACEFOLD_LLM_BASE_URL   default https://api.openai.com/v1 or https://api.anthropic.com
 *   TRACEFOLD_LLM_API_KEY    required for anthropic; optional for local OpenAI-compatible servers
 *   TRACEFOLD_LLM_MODEL      model name
 *   TRACEFOLD_LLM_TIMEOUT_MS per-attempt timeout (default 60000)
 *   TRACEFOLD_LLM_MAX_RETRIES retries on 408/429/5xx/network errors (default 2)
 */
export const LLM_PROVIDERS = ["openai", "anthropic"] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

export const DEFAULT_BASE_URLS: Record<LlmProvider, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
};

export const LlmConfigSchema = z
  .object({
    provider: z.enum(LLM_PROVIDERS),
    baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    apiKey: z.string().min(1).optional(),
    model: z.string().min(1, "is required"),
    timeoutMs: z.coerce.number({ error: "must be a number of milliseconds" }).int().positive().max(600_000).default(60_000),
    maxRetries: z.coerce.number({ error: "must be a whole number" }).int().min(0).max(8).default(2),
    anthropicVersion: z.string().min(1).default("2023-06-01"),
  })
  .refine((c) => c.provider !== "anthropic" || c.apiKey !== undefined, { path: ["apiKey"], message: "is required for the anthropic provider", when: () => true });
export type LlmConfig = z.infer<typeof LlmConfigSchema>;

/** Every problem with the LLM settings, named by environment variable (values are never echoed). */
export class LlmConfigError extends Error {
  readonly code = "llm_config";
  constructor(readonly problems: string[]) {
    super(`invalid LLM configuration: ${problems.join("; ")}`);
    this.name = "LlmConfigError";
  }
}

const ENV_NAMES: Record<string, string> = {
  provider: "TRACEFOLD_LLM_PROVIDER",
  baseUrl: "TRACEFOLD_LLM_BASE_URL",
  apiKey: "TRACEFOLD_LLM_API_KEY",
  model: "TRACEFOLD_LLM_MODEL",
  timeoutMs: "TRACEFOLD_LLM_TIMEOUT_MS",
  maxRetries: "TRACEFOLD_LLM_MAX_RETRIES",
};

/** The configured endpoint, or undefined when no provider is set. Throws LlmConfigError otherwise. */
export function readLlmConfig(env: Record<string, string | undefined> = process.env): LlmConfig | undefined {
  const provider = env.TRACEFOLD_LLM_PROVIDER?.trim();
  if (!provider) return undefined;
  const known = (LLM_PROVIDERS as readonly string[]).includes(provider);
  const raw = {
    provider,
    baseUrl: env.TRACEFOLD_LLM_BASE_URL?.trim() || (known ? DEFAULT_BASE_URLS[provider as LlmProvider] : undefined),
    apiKey: env.TRACEFOLD_LLM_API_KEY?.trim() || undefined,
    model: env.TRACEFOLD_LLM_MODEL?.trim() ?? "",
    timeoutMs: env.TRACEFOLD_LLM_TIMEOUT_MS?.trim() || undefined,
    maxRetries: env.TRACEFOLD_LLM_MAX_RETRIES?.trim() || undefined,
  };
  const parsed = LlmConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new LlmConfigError(parsed.error.issues.map((i) => `${ENV_NAMES[String(i.path[0])] ?? String(i.path[0])} ${i.message}`));
}
