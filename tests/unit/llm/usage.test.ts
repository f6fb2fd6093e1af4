import assert from "node:assert/strict";
import { test } from "node:test";
import type { LlmClient, LlmResponse } from "../../../lib/llm/types";
import { callCost } from "../../../server/llm/call-cost";
import { parseLlmUsage, recordUsage } from "../../../server/llm/usage-recorder";

const PRICES = { priceInput: 3, priceCachedInput: 0.3, priceOutput: 15 };

test("a call's cost: uncached input, cached input at its own price, output", () => {
  // 1000 in of which 800 cached, 100 out: 200 × 3 + 800 × 0.3 + 100 × 15 = 2340 micro-USD.
  assert.equal(callCost({ inputTokens: 1000, cachedInputTokens: 800, outputTokens: 100 }, PRICES), 0.00234);
  assert.equal(
    callCost({ inputTokens: 1000, cachedInputTokens: 800, outputTokens: 100 }, { priceInput: 3, priceOutput: 15 }),
    0.0045,
    "no cached price: cached input at the input price",
  );
  assert.equal(callCost({ inputTokens: 10, cachedInputTokens: 50, outputTokens: 0 }, PRICES), (10 * 0.3) / 1e6, "cached never exceeds input");
});

test("no cost is guessed: unpriced endpoints and calls without usage give undefined, not 0", () => {
  assert.equal(callCost({ inputTokens: 1000, outputTokens: 100 }, {}), undefined);
  assert.equal(callCost({ inputTokens: 1000, outputTokens: 100 }, { priceInput: 3 }), undefined);
  assert.equal(callCost({}, PRICES), undefined);
});

test("usage is added per purpose, priced and unpriced calls apart, on top of a resumed run's", async () => {
  const answers: LlmResponse[] = [
    { text: "a", model: "m", inputTokens: 100, cachedInputTokens: 40, outputTokens: 10, costUsd: 0.001 },
    { text: "b", model: "m", inputTokens: 50, outputTokens: 5 },
    { text: "c", model: "m", inputTokens: 7, outputTokens: 1, costUsd: 0.0005 },
  ];
  const inner: LlmClient = { id: "x:m", idFor: () => "x:judge", complete: async () => answers.shift()! };
  const recorder = recordUsage(
    inner,
    parseLlmUsage(JSON.stringify({ judge: { calls: 2, inputTokens: 20, cachedInputTokens: 0, outputTokens: 2, costUsd: 0.01, unpricedCalls: 0 } })),
  );
  assert.equal(recorder.client.idFor?.("judge"), "x:judge");
  const ask = (purpose: "judge" | "planner") => recorder.client.complete({ messages: [], maxTokens: 8, purpose });
  await ask("judge");
  await ask("planner");
  await ask("planner");
  assert.deepEqual(recorder.snapshot(), {
    judge: { calls: 3, inputTokens: 120, cachedInputTokens: 40, outputTokens: 12, costUsd: 0.011, unpricedCalls: 0 },
    planner: { calls: 2, inputTokens: 57, cachedInputTokens: 0, outputTokens: 6, costUsd: 0.0005, unpricedCalls: 1 },
  });
  assert.deepEqual(parseLlmUsage("not json"), {});
  assert.deepEqual(parseLlmUsage(null), {});
});
