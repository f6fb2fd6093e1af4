import assert from "node:assert/strict";
import { test } from "node:test";
import { MODEL_PRICES, priceKeyOf, pricesFor, DEFAULT_PRICE_CHOICE } from "@/lib/rollout/model-prices";
import { parseCacheTtl, parsePriceChoice, parsePriceTable } from "@/lib/rollout/price-choice";

test("model names as traces spell them find their list price by the longest prefix", () => {
  const cases: [string, string | undefined][] = [
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4"],
    ["anthropic/claude-opus-4-1", "claude-opus-4"],
    ["claude-opus-4-5-20251101", "claude-opus-4-5"],
    ["claude-opus-4-6", "claude-opus-4-6"],
    ["us.anthropic.claude-3-5-haiku-20241022-v1:0", "claude-3-5-haiku"],
    ["gpt-5-mini-2025-08-07", "gpt-5-mini"],
    ["openai:gpt-4o-2024-08-06", "gpt-4o"],
    ["gpt-4o-mini", "gpt-4o-mini"],
    ["gemini-2.5-flash-lite", "gemini-2.5-flash-lite"],
    ["o3-2025-04-16", "o3"],
    ["grok-3", undefined],
    ["my-local-llama", undefined],
  ];
  for (const [model, key] of cases) assert.equal(priceKeyOf(model), key, model);
  assert.equal(pricesFor(undefined, DEFAULT_PRICE_CHOICE), undefined, "no model: unpriced, never a default price");
  assert.equal(pricesFor("grok-3", DEFAULT_PRICE_CHOICE), undefined);
});

test("--prices: a model's list price for every session, explicit prices, or a table file over the built-in one", () => {
  assert.deepEqual(parsePriceChoice("model=gpt-4.1"), { kind: "fixed", prices: MODEL_PRICES["gpt-4.1"], label: "gpt-4.1" });
  assert.deepEqual(parsePriceChoice("input=2,output=8"), { kind: "fixed", prices: { input: 2, output: 8, cachedInput: 2, cacheWrite: 2 }, label: "custom" });
  assert.throws(() => parsePriceChoice("model=grok-3"), /no list price for model "grok-3"/);
  assert.throws(() => parsePriceChoice("input=2"), /at least input= and output=/);
  assert.throws(() => parsePriceChoice("input=2,outptu=8"), /"outptu=8"/);
  const table = parsePriceTable(JSON.stringify({ "grok-3": { input: 3, output: 15, cachedInput: 0.75 } }), "prices.json");
  assert.deepEqual(pricesFor("grok-3-latest", table)?.prices, { input: 3, output: 15, cachedInput: 0.75, cacheWrite: 3 });
  assert.equal(pricesFor("gpt-4.1", table)?.label, "gpt-4.1", "built-in prices stay");
  assert.throws(() => parsePriceTable(JSON.stringify({ "grok-3": { input: "3" } }), "prices.json"), /prices\.json: grok-3\.input:/);
  assert.throws(() => parsePriceTable("{", "prices.json"), /prices\.json: not JSON/);
});

test("--cache-ttl reads seconds, minutes, hours or none", () => {
  assert.equal(parseCacheTtl("300s"), 300_000);
  assert.equal(parseCacheTtl("5m"), 300_000);
  assert.equal(parseCacheTtl("1h"), 3_600_000);
  assert.equal(parseCacheTtl("none"), Number.POSITIVE_INFINITY);
  assert.throws(() => parseCacheTtl("5"), /300s, 5m or 1h/);
  assert.throws(() => parseCacheTtl("0m"), /300s, 5m or 1h/);
});
