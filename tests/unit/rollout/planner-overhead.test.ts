import assert from "node:assert/strict";
import { test } from "node:test";
import { findPolicy } from "@/lib/compaction/policies/registry";
import type { LlmClient, LlmRequest, LlmResponse } from "@/lib/llm/types";
import { billedCost, type Prices } from "@/lib/rollout/billed-cost";
import { rolloutFigures } from "@/lib/rollout/rollout-figures";
import { rolloutSession } from "@/lib/rollout/rollout-session";
import { rolloutSuite } from "@/lib/rollout/rollout-suite";
import { defaultSimWindow } from "@/lib/rollout/window";
import { generateScenario } from "@/lib/scenario/generate";
import { createAnalyzer } from "@/lib/analysis/analyze";

/*
 * Planner overhead (issue 14 item 2): with self-gc's LLM planner every round the policy runs is a
 * paid model call, committed or not. The rollout counts those rounds, sums their tokens, prices
 * them (the endpoint's reported cost, else the price table) and bills them in cost.with.
 */

const PRICES: Prices = { input: 2, cachedInput: 0.5, cacheWrite: 2.5, output: 8 };
const selfGc = findPolicy("self-gc")!;

function scenario(seed = 1) {
  const session = generateScenario({ workload: "spreadsheet-repair", seed }).session;
  const tokenizer = createAnalyzer().tokenizerFor(session);
  return { session, tokenizer, window: defaultSimWindow(session, tokenizer) };
}

/** A model that answers every planner prompt with a valid plan folding every function turn it is shown. */
function fakePlanner(usage: Omit<LlmResponse, "text" | "model">, model = "fake-model", seen: LlmRequest[] = []): LlmClient {
  return {
    id: "fake:planner",
    complete: async (request) => {
      seen.push(request);
      const prompt = request.messages.map((m) => m.content).join("\n");
      const ids = new Set([...prompt.matchAll(/<turn id="function:([a-z_]+:\d+)"/g)].map((m) => m[1]!));
      const plan = [...ids].map((id) => `<fold kind="function" reason="stable_artifact">${id}</fold>`).join("");
      return { text: `<above_conversation_summary>Fake plan.</above_conversation_summary>\n<gc_plan>${plan}</gc_plan>`, model, ...usage };
    },
  };
}

test("LLM planner: every round the policy runs is recorded with its tokens, and cost.with adds the endpoint's reported cost", async () => {
  const { session, tokenizer, window } = scenario();
  const seen: LlmRequest[] = [];
  const llm = fakePlanner({ inputTokens: 1200, outputTokens: 80, cachedInputTokens: 200, costUsd: 0.0025 }, "fake-model", seen);
  const result = await rolloutSession(session, selfGc, { window, tokenizer, params: { planner: "llm" }, llm, prices: PRICES });
  assert.ok(seen.length > 0, "the trigger fired and the planner was asked");
  assert.ok(result.compactions.length > 0, "some plan was committed");
  assert.ok(seen.every((r) => r.purpose === "planner"));
  assert.equal(result.plannerRounds.length, seen.length, "one round per planner call (every answer parsed: no repairs)");
  for (const round of result.plannerRounds) {
    assert.deepEqual([round.inputTokens, round.outputTokens, round.cachedInputTokens, round.costUsd, round.model], [1200, 80, 200, 0.0025, "fake-model"]);
    assert.equal(result.calls[round.call]!.message, round.message);
    assert.equal(result.calls[round.call]!.compacted, round.committed, "a committed round is the commit before its call");
  }
  assert.equal(
    result.plannerRounds.filter((r) => r.committed).length,
    result.compactions.length,
    "committed rounds are the compactions; the others were paid for anyway",
  );

  const n = result.plannerRounds.length;
  const figures = rolloutFigures("self-gc", [{ result, prices: PRICES }]);
  assert.deepEqual(figures.planner, {
    rounds: n,
    inputTokens: 1200 * n,
    outputTokens: 80 * n,
    cachedInputTokens: 200 * n,
    cost: Math.round(0.0025 * n * 1e6) / 1e6,
    unpricedRounds: 0,
  });
  const callsOnly = rolloutFigures("self-gc", [{ result: { ...result, plannerRounds: [] }, prices: PRICES }]);
  assert.deepEqual(callsOnly.planner, { rounds: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cost: 0, unpricedRounds: 0 });
  assert.equal(callsOnly.cost!.without, figures.cost!.without, "the baseline pays no planner");
  assert.ok(Math.abs(figures.cost!.with - callsOnly.cost!.with - 0.0025 * n) < 2e-6, `${figures.cost!.with} vs ${callsOnly.cost!.with} + ${0.0025 * n}`);
});

test("LLM planner without a reported cost: rounds are priced at the planner model's entry in the price table, or left unpriced", async () => {
  const { session, tokenizer } = scenario(2);
  const items = [{ session, tokenizer }];
  const usage = { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 400 };
  const params = { "self-gc": { planner: "llm" } };
  // A fixed price prices every session and every planner round alike.
  const fixed = await rolloutSuite(items, [selfGc], { params, llm: fakePlanner(usage), prices: { kind: "fixed", prices: PRICES, label: "custom" } });
  const [pooled] = fixed.policies;
  const rounds = pooled!.planner.rounds;
  assert.ok(rounds > 0);
  const each = billedCost({ calls: 1, input: 1000, cached: 400, write: 0, output: 100 }, PRICES);
  assert.equal(each, (600 * 2 + 400 * 0.5 + 100 * 8) / 1e6);
  assert.deepEqual(pooled!.planner, {
    rounds,
    inputTokens: 1000 * rounds,
    outputTokens: 100 * rounds,
    cachedInputTokens: 400 * rounds,
    cost: Math.round(each * rounds * 1e6) / 1e6,
    unpricedRounds: 0,
  });
  assert.deepEqual(fixed.sessions[0]!.policies[0]!.planner, pooled!.planner, "one session: its figures are the pool's");
  assert.deepEqual(
    fixed.sessions[0]!.policies[0]!.plannerRounds!.map((r) => [r.inputTokens, r.outputTokens, r.cachedInputTokens, r.cost]),
    Array.from({ length: rounds }, () => [1000, 100, 400, each]),
    "each round listed with its price",
  );

  // By model: a planner model the table knows is billed at its list price; one it does not know stays unpriced.
  const known = await rolloutSuite(items, [selfGc], { params, llm: fakePlanner(usage, "claude-haiku-4-5-20251001") });
  const haiku = (600 * 1 + 400 * 0.1 + 100 * 5) / 1e6;
  assert.equal(known.policies[0]!.planner.cost, Math.round(haiku * rounds * 1e6) / 1e6);
  const unknown = await rolloutSuite(items, [selfGc], { params, llm: fakePlanner(usage, "house-model-7") });
  assert.deepEqual([unknown.policies[0]!.planner.cost, unknown.policies[0]!.planner.unpricedRounds], [null, rounds]);
});

test("rule-based planner: no planner rounds, all-zero planner figures, and the same walk and cost as without a client", async () => {
  const { session, tokenizer, window } = scenario();
  const seen: LlmRequest[] = [];
  const llm = fakePlanner({ inputTokens: 1, outputTokens: 1, costUsd: 1 }, "fake-model", seen);
  for (const id of ["self-gc", "tool-prune"]) {
    const policy = findPolicy(id)!;
    const plain = await rolloutSession(session, policy, { window, tokenizer, prices: PRICES });
    const withClient = await rolloutSession(session, policy, { window, tokenizer, prices: PRICES, llm });
    assert.deepEqual(plain.plannerRounds, []);
    // (JSON: the judged rounds carry closures, equal in what they do but not by reference.)
    assert.deepEqual(JSON.parse(JSON.stringify(withClient)), JSON.parse(JSON.stringify(plain)), `${id}: a client the policy does not use changes nothing`);
    const figures = rolloutFigures(id, [{ result: plain, prices: PRICES }]);
    assert.deepEqual(figures.planner, { rounds: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cost: 0, unpricedRounds: 0 });
    const billed = plain.calls.reduce(
      (a, c) => a + billedCost({ calls: 1, input: c.with.input, cached: c.with.cached, write: c.with.write, output: c.output }, PRICES),
      0,
    );
    assert.equal(figures.cost!.with, Math.round(billed * 1e6) / 1e6, `${id}: cost.with is the calls' bill alone`);
  }
  assert.equal(seen.length, 0, "the rule-based planner calls no model");
});
