import type { LlmClient, LlmRequest, LlmResponse } from "../../lib/llm/types";
import { anthropicCall, parseAnthropicResponse } from "./anthropic";
import { readLlmConfig, type LlmConfig } from "./config";
import { defaultHttpDeps, postJson, type HttpDeps } from "./http";
import { openAiCall, parseOpenAiResponse } from "./openai";

/**
 * The server's LlmClient for lib/ (planner, summarizer, judges): one configured OpenAI-compatible
 * or Anthropic endpoint over fetch, with per-attempt timeouts and bounded retries. The key lives
 * only in this closure; the client exposes an id of the form `<provider>:<model>` and nothing else.
 */
export function createLlmClient(config: LlmConfig, deps: Partial<HttpDeps> = {}): LlmClient {
  const http: HttpDeps = { ...defaultHttpDeps, ...deps };
  const options = { provider: config.provider, timeoutMs: config.timeoutMs, maxRetries: config.maxRetries, ...(config.apiKey ? { secret: config.apiKey } : {}) };
  return {
    id: `${config.provider}:${config.model}`,
    async complete(request: LlmRequest): Promise<LlmResponse> {
      if (config.provider === "anthropic") {
        const call = anthropicCall(config, request);
        return parseAnthropicResponse(await postJson(call.url, call.headers, call.body, options, http), config);
      }
      const call = openAiCall(config, request);
      return parseOpenAiResponse(await postJson(call.url, call.headers, call.body, options, http), config);
    },
  };
}

/**
 * The client for the environment's configuration alone, or undefined when no provider is configured.
 * The server uses getLlmClient (effective-config.ts), which also reads the admin's stored endpoint.
 */
export function llmClientFromEnv(env: Record<string, string | undefined> = process.env): LlmClient | undefined {
  const config = readLlmConfig(env);
  return config ? createLlmClient(config) : undefined;
}
