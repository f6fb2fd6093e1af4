import assert from "node:assert/strict";
import { test } from "node:test";
import { createLlmClient } from "../../../server/llm/client";
import type { LlmConfig } from "../../../server/llm/config";
import { bedrockRegion } from "../../../server/llm/provider-model";
import { isReasoningModel } from "../../../server/llm/reasoning";
import { bedrockConverseBody, openAiBody } from "../../helpers/llm-stub/wire-bodies";

/**
 * The URLs the SDK providers build from the base URLs an admin types for the real services (no
 * network: an injected fetch records the request and answers the protocol's body).
 */
function recordingFetch(body: unknown): { urls: string[]; fetch: typeof fetch } {
  const urls: string[] = [];
  return {
    urls,
    fetch: async (input) => {
      urls.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    },
  };
}

const request = { messages: [{ role: "user" as const, content: "hi" }], maxTokens: 16, purpose: "judge" as const };
const config = (over: Partial<LlmConfig> & Pick<LlmConfig, "provider" | "baseUrl" | "model">): LlmConfig => ({
  apiKey: "k-123456789012",
  timeoutMs: 1_000,
  maxRetries: 0,
  reasoning: "auto",
  ...over,
});

test("azure: a resource URL gets the v1 API path and api-version; the model is the deployment", async () => {
  const { urls, fetch } = recordingFetch(openAiBody("ok"));
  await createLlmClient(config({ provider: "azure", baseUrl: "https://contoso.openai.azure.com/openai", model: "judge-deployment" }), { fetch }).complete(
    request,
  );
  assert.equal(urls[0], "https://contoso.openai.azure.com/openai/v1/chat/completions?api-version=v1");
});

test("amazon-bedrock: the Converse path under the regional runtime URL; the region is read from it", async () => {
  const { urls, fetch } = recordingFetch(bedrockConverseBody("ok"));
  await createLlmClient(
    config({ provider: "amazon-bedrock", baseUrl: "https://bedrock-runtime.eu-west-1.amazonaws.com", model: "anthropic.claude-3-5-haiku-20241022-v1:0" }),
    { fetch },
  ).complete(request);
  assert.equal(urls[0], "https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse");
  assert.equal(bedrockRegion("https://bedrock-runtime.eu-west-1.amazonaws.com"), "eu-west-1");
  assert.equal(bedrockRegion("http://127.0.0.1:9999"), "us-east-1");
});

test("reasoning models by name: gpt-5 and the o-series, not gpt-5-chat, gpt-4o or a name that merely contains o3", () => {
  const auto = (model: string) => isReasoningModel({ model, reasoning: "auto" });
  for (const model of ["gpt-5", "gpt-5-mini", "gpt-5.1", "gpt-5-2025-08-07", "o1", "o1-preview", "o3", "o3-mini", "o4-mini", "openai/o3"])
    assert.equal(auto(model), true, model);
  for (const model of ["gpt-5-chat-latest", "gpt-4o", "gpt-4.1-mini", "claude-sonnet-4-5", "llama-o3", "omni"]) assert.equal(auto(model), false, model);
  assert.equal(isReasoningModel({ model: "my-deployment", reasoning: "on" }), true);
  assert.equal(isReasoningModel({ model: "o3", reasoning: "off" }), false);
});
