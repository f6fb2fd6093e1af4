import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createLlmJudge, buildJudgePacket } from "../../lib/evaluation/llm-judge";
import { createLlmClient } from "../../server/llm/client";
import type { LlmConfig } from "../../server/llm/config";
import { LlmError } from "../../server/llm/errors";
import { promptOf, startLlmStub, type LlmStub } from "../helpers/llm-stub-server";
import { resultFor, verdictJson } from "../unit/evaluation/llm-judge/fixtures";

/**
 * Every provider through the real AI SDK client against a local stub speaking its wire protocol
 * (ephemeral port): the path and auth each API expects, the answer's text, and the
 * provider-reported usage with cached input tokens read back. Then OpenAI's reasoning models: the
 * stub refuses max_tokens/temperature with OpenAI's own 400, and our calls pass.
 */
const KEY = "sk-providers-Tq4Zm8Lp2Wx6";
const USAGE = { input: 120, output: 9, cached: 100 };
const request = {
  messages: [
    { role: "system" as const, content: "Be brief." },
    { role: "user" as const, content: "Say hi." },
  ],
  maxTokens: 64,
  temperature: 0,
  purpose: "judge" as const,
};

let stub: LlmStub;
before(async () => {
  stub = await startLlmStub((r) => `hi from ${r.path.split("?")[0]}`, { reasoningModels: /^(?:gpt-5|o\d)|reasoner/ });
});
after(() => stub.close());

const config = (over: Partial<LlmConfig> & Pick<LlmConfig, "provider" | "model">): LlmConfig => ({
  baseUrl: stub.baseUrl,
  apiKey: KEY,
  timeoutMs: 5_000,
  maxRetries: 0,
  reasoning: "auto",
  ...over,
});

interface Case {
  config: Partial<LlmConfig> & Pick<LlmConfig, "provider" | "model">;
  path: RegExp;
  auth: (headers: Record<string, string | string[] | undefined>) => boolean;
}

const bearer = (h: Record<string, string | string[] | undefined>) => h.authorization === `Bearer ${KEY}`;
const CASES: Record<string, Case> = {
  "openai (Chat Completions)": { config: { provider: "openai", model: "gpt-4.1-mini", baseUrl: "" }, path: /^\/v1\/chat\/completions$/, auth: bearer },
  "openai-responses (Responses)": { config: { provider: "openai-responses", model: "gpt-4.1-mini", baseUrl: "" }, path: /^\/v1\/responses$/, auth: bearer },
  "anthropic (Messages)": { config: { provider: "anthropic", model: "claude-sonnet-4-5" }, path: /^\/v1\/messages$/, auth: (h) => h["x-api-key"] === KEY },
  "openai-compatible (Chat Completions)": {
    config: { provider: "openai-compatible", model: "qwen3", baseUrl: "" },
    path: /^\/v1\/chat\/completions$/,
    auth: bearer,
  },
  // A host outside *.openai.azure.com gets no `/v1?api-version=v1` (the SDK's rule for proxies), hence the plain path.
  "azure (Chat Completions, v1 API)": {
    config: { provider: "azure", model: "prod-deployment", baseUrl: "" },
    path: /^\/openai\/chat\/completions$/,
    auth: (h) => h["api-key"] === KEY,
  },
  "amazon-bedrock (Converse)": {
    config: { provider: "amazon-bedrock", model: "anthropic.claude-3-5-haiku-20241022-v1:0" },
    path: /^\/model\/anthropic\.claude-3-5-haiku-20241022-v1%3A0\/converse$/,
    auth: bearer,
  },
  "google (Gemini)": {
    config: { provider: "google", model: "gemini-2.5-flash", baseUrl: "" },
    path: /^\/v1beta\/models\/gemini-2\.5-flash:generateContent$/,
    auth: (h) => h["x-goog-api-key"] === KEY,
  },
};

/** The stub's base URL with the path prefix each API root has. */
function baseFor(provider: LlmConfig["provider"]): string {
  if (provider === "azure") return `${stub.baseUrl}/openai`;
  if (provider === "google") return `${stub.baseUrl}/v1beta`;
  if (provider === "anthropic" || provider === "amazon-bedrock") return stub.baseUrl;
  return `${stub.baseUrl}/v1`;
}

describe("each provider through the AI SDK against its wire protocol", () => {
  for (const [name, c] of Object.entries(CASES)) {
    test(`${name}: path, auth, text and usage with cached input tokens`, async () => {
      const before = stub.requests.length;
      stub.script({ usage: USAGE });
      const response = await createLlmClient(config({ ...c.config, baseUrl: baseFor(c.config.provider) })).complete(request);
      const sent = stub.requests[before]!;
      assert.match(sent.path, c.path);
      assert.ok(c.auth(sent.headers), `auth headers: ${JSON.stringify(Object.keys(sent.headers))}`);
      assert.ok(!sent.path.includes(KEY));
      assert.equal(promptOf(sent).system, "Be brief.");
      assert.equal(response.text, `hi from ${sent.path.split("?")[0]}`);
      assert.deepEqual([response.inputTokens, response.cachedInputTokens, response.outputTokens], [120, 100, 9]);
    });
  }
});

describe("reasoning models get only the parameters they accept", () => {
  test("the stub refuses max_tokens and temperature exactly like OpenAI (the control: reasoning off)", async () => {
    const client = createLlmClient(config({ provider: "openai", model: "gpt-5-mini", baseUrl: `${stub.baseUrl}/v1`, reasoning: "off" }));
    const error = await client.complete(request).then(
      () => assert.fail("expected the 400"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LlmError && error.status === 400 && error.code === "http_error");
    assert.match(
      error.details.bodyExcerpt ?? "",
      /Unsupported parameter: 'max_tokens' is not supported with this model\. Use 'max_completion_tokens' instead\./,
    );
  });

  const passing: [string, LlmConfig["provider"], string, LlmConfig["reasoning"], string][] = [
    ["openai gpt-5-mini (auto-detected)", "openai", "gpt-5-mini", "auto", "max_completion_tokens"],
    ["openai o4-mini (auto-detected)", "openai", "o4-mini", "auto", "max_completion_tokens"],
    ["openai-responses o3 (auto-detected)", "openai-responses", "o3", "auto", "max_output_tokens"],
    ["azure deployment named freely (reasoning on)", "azure", "reasoner-prod", "on", "max_completion_tokens"],
    ["openai-compatible server (reasoning on)", "openai-compatible", "local-reasoner", "on", "max_completion_tokens"],
  ];
  for (const [name, provider, model, reasoning, limitName] of passing) {
    test(`${name}: no temperature, the limit as ${limitName}, and the call passes`, async () => {
      const before = stub.requests.length;
      const response = await createLlmClient(config({ provider, model, reasoning, baseUrl: baseFor(provider) })).complete(request);
      const body = stub.requests[before]!.body as Record<string, unknown>;
      assert.equal(stub.requests.length - before, 1);
      assert.ok(!("temperature" in body) && !("max_tokens" in body), JSON.stringify(Object.keys(body)));
      assert.equal(body[limitName], 64);
      assert.match(response.text, /^hi from /);
    });
  }
});

test("the judge's one repair retry carries the parse error through the real client", async () => {
  const { session, index, result } = await resultFor("tool-prune");
  const packet = buildJudgePacket({ session, index, result }, { maxChars: 30_000 });
  const before = stub.requests.length;
  stub.script({ text: "The prefix looks fine to me." }, { text: JSON.stringify(verdictJson({ valid: true, failure_culprit: null })), usage: USAGE });
  const outcome = await createLlmJudge(createLlmClient(config({ provider: "anthropic", model: "claude-sonnet-4-5" }))).judge(packet);
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.error));
  assert.equal(stub.requests.length - before, 2);
  const repair = promptOf(stub.requests[before + 1]!).messages;
  assert.deepEqual(
    repair.slice(-2).map((m) => m.role),
    ["assistant", "user"],
  );
  assert.equal(repair.at(-2)!.content, "The prefix looks fine to me.");
  assert.match(repair.at(-1)!.content, /^Your answer was rejected: .*no JSON object/);
  assert.deepEqual(
    outcome.attempts.map((a) => a.cachedInputTokens),
    [0, 100],
  );
});
