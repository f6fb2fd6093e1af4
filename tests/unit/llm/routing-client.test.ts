import assert from "node:assert/strict";
import { test } from "node:test";
import type { LlmClient, LlmRequest } from "../../../lib/llm/types";
import { createLlmJudge } from "../../../lib/evaluation/llm-judge";
import { createLlmPlanner } from "../../../lib/compaction/planner/llm-planner";
import type { LlmConfig } from "../../../server/llm/config";
import { createRoutingClient } from "../../../server/llm/routing-client";
import { runModels } from "../../../server/evaluation/run-models";
import { LLM_SLOTS, type LlmSlot } from "../../../server/llm/slots";

const endpoint = (provider: LlmConfig["provider"], model: string): { config: LlmConfig } => ({
  config: { provider, model, baseUrl: "http://127.0.0.1:9/v1", timeoutMs: 1_000, maxRetries: 0, reasoning: "auto" },
});

/** Fake clients that record which requests reached them, created once per distinct configuration. */
function fakeFactory() {
  const created: (LlmClient & { seen: LlmRequest[] })[] = [];
  const create = (config: LlmConfig) => {
    const seen: LlmRequest[] = [];
    const client = {
      id: `${config.provider}:${config.model}`,
      seen,
      complete: async (r: LlmRequest) => (seen.push(r), { text: config.model, model: config.model }),
    };
    created.push(client);
    return client;
  };
  return { created, create };
}

const ask = (client: LlmClient, purpose: LlmRequest["purpose"]) => client.complete({ messages: [{ role: "user", content: "hi" }], maxTokens: 8, purpose });

test("each purpose reaches its own endpoint; unset purposes share the default's client", async () => {
  const { created, create } = fakeFactory();
  const configs = Object.fromEntries(LLM_SLOTS.map((s) => [s, endpoint("openai", "gpt-4.1")])) as Record<LlmSlot, { config: LlmConfig }>;
  configs.planner = endpoint("anthropic", "claude-sonnet-4-5");
  configs.judge = endpoint("azure", "judge-deployment");
  const client = createRoutingClient(configs, create);
  assert.equal(created.length, 3, "default, summarizer and A/B judge share one client");
  assert.deepEqual(
    await Promise.all((["planner", "judge", "ab-judge", "summarizer", "rubric", "connection-test"] as const).map(async (p) => (await ask(client, p)).text)),
    ["claude-sonnet-4-5", "judge-deployment", "gpt-4.1", "gpt-4.1", "gpt-4.1", "gpt-4.1"],
  );
  assert.equal(client.id, "openai:gpt-4.1");
  assert.equal(createLlmPlanner(client).id, "llm:anthropic:claude-sonnet-4-5", "the planner id names the model that plans");
  assert.equal(createLlmJudge(client).id, "llm:azure:judge-deployment", "the judge id names the model that judges");
});

test("a run records the planner and judge models; the same model in both is visible as such", () => {
  const { create } = fakeFactory();
  const same = createRoutingClient(
    Object.fromEntries(LLM_SLOTS.map((s) => [s, endpoint("openai", "gpt-5")])) as Record<LlmSlot, { config: LlmConfig }>,
    create,
  );
  const settings = { judge: "llm" as const, policies: [{ id: "self-gc", params: { planner: "llm" } }, { id: "tool-prune" }] };
  assert.deepEqual(runModels(settings, same), { plannerModel: "openai:gpt-5", judgeModel: "openai:gpt-5" });
  const configs = Object.fromEntries(LLM_SLOTS.map((s) => [s, endpoint("openai", "gpt-5")])) as Record<LlmSlot, { config: LlmConfig }>;
  configs.judge = endpoint("anthropic", "claude-opus-4-1");
  assert.deepEqual(runModels(settings, createRoutingClient(configs, create)), { plannerModel: "openai:gpt-5", judgeModel: "anthropic:claude-opus-4-1" });
  assert.deepEqual(
    runModels({ judge: "dependency", policies: [{ id: "self-gc" }] }, same),
    { plannerModel: null, judgeModel: null },
    "rule-based planner, dependency judge: no model",
  );
  assert.deepEqual(runModels(settings, undefined), { plannerModel: null, judgeModel: null });
});
