import { generateText } from "ai";
import type { LlmAbortSignal, LlmClient, LlmMessage, LlmRequest, LlmResponse } from "../../lib/llm/types";
import { callCost } from "./call-cost";
import { classifyError, retryAfterMs } from "./classify-error";
import { readLlmConfig, type LlmConfig } from "./config";
import { LlmError } from "./errors";
import { languageModelFor } from "./provider-model";
import { isReasoningModel } from "./reasoning";
import { processEnv } from "@/server/env";

/**
 * The server's LlmClient for lib/ (planner, summarizer, judges): one configured endpoint through
 * the Vercel AI SDK (provider-model.ts), with a per-attempt timeout, bounded retries with
 * exponential backoff and jitter on 408/429/5xx, timeouts and network errors (`retry-after`
 * honoured up to 30 s), and cancellation through the request's signal. Reasoning models get no
 * temperature and their output limit under the name their API wants (reasoning.ts). The key lives
 * only in this closure; the client exposes an id of the form `<provider>:<model>` and nothing else.
 */
export interface HttpDeps {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const defaultHttpDeps: HttpDeps = {
  fetch: (...args) => fetch(...args),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

export function createLlmClient(config: LlmConfig, deps: Partial<HttpDeps> = {}): LlmClient {
  const http: HttpDeps = { ...defaultHttpDeps, ...deps };
  const model = languageModelFor(config, withoutEmptyBearer(http.fetch));
  const reasoning = isReasoningModel(config);
  return {
    id: `${config.provider}:${config.model}`,
    async complete(request: LlmRequest): Promise<LlmResponse> {
      let last: LlmError | undefined;
      for (let attempt = 1; attempt <= config.maxRetries + 1; attempt++) {
        if (request.signal?.aborted)
          throw new LlmError("cancelled", `${config.provider} call was cancelled`, { provider: config.provider, attempts: attempt - 1, retryable: false });
        const timeout = new AbortController();
        const timer = setTimeout(() => timeout.abort(), config.timeoutMs);
        const signal = combine(timeout.signal, request.signal);
        let retryAfter: number | undefined;
        try {
          const result = await generateText({
            model,
            ...splitSystem(request.messages),
            maxOutputTokens: request.maxTokens,
            ...(!reasoning && request.temperature !== undefined ? { temperature: request.temperature } : {}),
            providerOptions: { openai: { forceReasoning: reasoning }, azure: { forceReasoning: reasoning } },
            maxRetries: 0,
            abortSignal: signal,
          });
          return toResponse(result, config);
        } catch (error) {
          last = classifyError(error, {
            provider: config.provider,
            attempt,
            timeoutMs: config.timeoutMs,
            timedOut: timeout.signal.aborted,
            cancelled: request.signal?.aborted === true,
            ...(config.apiKey ? { secret: config.apiKey } : {}),
          });
          if (!last.details.retryable) throw last;
          retryAfter = retryAfterMs(error);
        } finally {
          clearTimeout(timer);
        }
        if (attempt <= config.maxRetries) {
          const backoff = 500 * 2 ** (attempt - 1) * (0.5 + http.random() / 2);
          await http.sleep(Math.min(30_000, retryAfter ?? backoff));
        }
      }
      throw last ?? new LlmError("network", `${config.provider} call failed`, { provider: config.provider, attempts: config.maxRetries + 1, retryable: true });
    },
  };
}

type GenerateResult = Awaited<ReturnType<typeof generateText>>;

/** Text, answering model and the provider-reported usage, cached input tokens included, and its cost when priced. */
function toResponse(result: GenerateResult, config: LlmConfig): LlmResponse {
  const { usage } = result;
  const cached = usage.inputTokenDetails?.cacheReadTokens;
  const response: LlmResponse = {
    text: result.text,
    model: result.response.modelId || config.model,
    ...(usage.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
    ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
  };
  const costUsd = callCost(response, config);
  return costUsd === undefined ? response : { ...response, costUsd };
}

/** System messages go in the SDK's `system` option (it warns about them inside `messages`). */
function splitSystem(messages: readonly LlmMessage[]): { system?: string; messages: { role: "user" | "assistant"; content: string }[] } {
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n\n");
  const rest = messages.filter((m): m is LlmMessage & { role: "user" | "assistant" } => m.role !== "system").map((m) => ({ role: m.role, content: m.content }));
  return { ...(system ? { system } : {}), messages: rest };
}

/** The attempt's timeout and the caller's cancellation as one signal. */
function combine(timeout: AbortSignal, caller: LlmAbortSignal | undefined): AbortSignal {
  if (!caller) return timeout;
  if (caller instanceof AbortSignal) return AbortSignal.any([timeout, caller]);
  const bridge = new AbortController();
  if (caller.aborted) bridge.abort();
  else caller.addEventListener("abort", () => bridge.abort());
  return AbortSignal.any([timeout, bridge.signal]);
}

/** A key-less OpenAI endpoint (a local server) gets no `Authorization: Bearer ` header at all. */
function withoutEmptyBearer(inner: typeof fetch): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (headers.get("authorization")?.trim() === "Bearer") headers.delete("authorization");
    return inner(input, { ...init, headers });
  };
}

/**
 * The client for the environment's configuration alone, or undefined when no provider is configured.
 * The server uses getLlmClient (effective-config.ts), which also reads the admin's stored endpoints.
 */
export function llmClientFromEnv(env: Record<string, string | undefined> = processEnv()): LlmClient | undefined {
  const config = readLlmConfig(env);
  return config ? createLlmClient(config) : undefined;
}
