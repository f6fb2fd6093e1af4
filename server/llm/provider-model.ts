import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createAzure } from "@ai-sdk/azure";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { LlmConfig } from "./config";
import { isReasoningModel } from "./reasoning";

/**
 * The AI SDK language model for one configured endpoint. Every provider gets our `fetch` (tests
 * inject one; the default strips an empty bearer header so a key-less local server sees none) and
 * the configured base URL, so a stub server can stand in for any of them.
 *
 * Base URL conventions (what an admin types): OpenAI/compatible/Google as the API root
 * (`…/v1`, `…/v1beta`); Anthropic with or without `/v1`; Azure as `https://<resource>.openai.azure.com/openai`
 * (the v1 API: deployments are named as the model); Bedrock as `https://bedrock-runtime.<region>.amazonaws.com`
 * (region read from it, for SigV4 when no API key is set and the AWS_* variables sign).
 */
export function languageModelFor(config: LlmConfig, fetch: typeof globalThis.fetch): LanguageModel {
  const baseURL = config.baseUrl.replace(/\/+$/, "");
  const apiKey = config.apiKey;
  switch (config.provider) {
    case "openai":
      return createOpenAI({ baseURL, apiKey: apiKey ?? "", fetch }).chat(config.model);
    case "openai-responses":
      return createOpenAI({ baseURL, apiKey: apiKey ?? "", fetch }).responses(config.model);
    case "anthropic":
      return createAnthropic({ baseURL: /\/v1$/.test(baseURL) ? baseURL : `${baseURL}/v1`, apiKey: apiKey ?? "", fetch })(config.model);
    case "openai-compatible": {
      const reasoning = isReasoningModel(config);
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        ...(apiKey ? { apiKey } : {}),
        fetch,
        includeUsage: true,
        // The compatible provider always says max_tokens; a reasoning model behind it wants the OpenAI name.
        ...(reasoning ? { transformRequestBody: asReasoningBody } : {}),
      }).chatModel(config.model);
    }
    case "azure":
      return createAzure({ baseURL, apiKey: apiKey ?? "", fetch }).chat(config.model);
    case "amazon-bedrock":
      return createAmazonBedrock({ baseURL, region: bedrockRegion(baseURL), ...(apiKey ? { apiKey } : {}), fetch })(config.model);
    case "google":
      return createGoogleGenerativeAI({ baseURL, apiKey: apiKey ?? "", fetch })(config.model);
  }
}

/** Request body for a reasoning model on an OpenAI-compatible server: no temperature, max_completion_tokens. */
export function asReasoningBody(body: Record<string, unknown>): Record<string, unknown> {
  const { temperature: _temperature, max_tokens: maxTokens, ...rest } = body;
  return maxTokens === undefined ? rest : { ...rest, max_completion_tokens: maxTokens };
}

/** `bedrock-runtime.eu-west-1.amazonaws.com` → `eu-west-1`; anything else (a stub) → us-east-1. */
export function bedrockRegion(baseUrl: string): string {
  return /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(baseUrl)?.[1] ?? "us-east-1";
}
