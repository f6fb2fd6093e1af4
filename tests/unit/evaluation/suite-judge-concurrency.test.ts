import assert from "node:assert/strict";
import { test } from "node:test";
import { evaluateSuite, type JudgedUnitView, type SuiteItem } from "../../../lib/evaluation/runner/evaluate-suite";
import { createLlmJudge } from "../../../lib/evaluation/llm-judge";
import { judgeUnitsWith } from "../../../lib/evaluation/runner/llm-judge-unit";
import type { LlmClient } from "../../../lib/llm/types";
import { findPolicy } from "../../../lib/compaction/policies/registry";
import { cachedTokenizer } from "../../../lib/tokens";
import { scenarioSuite } from "./scenario-recall";

/**
 * One engine for both judges (issue 13 item 3): the LLM judge plugged into lib/evaluation's suite loop,
 * with units in flight at once. Concurrency must change nothing but the overlap: the same items in
 * the same order as a sequential run, and the judge sees the unit's own policy result.
 */
const tokenizer = cachedTokenizer("o200k");
const sessions = scenarioSuite([1]).map(({ scenario, index }) => ({ session: scenario.session, index }));
const policies = ["none", "tool-prune", "oldest-turn"].map((id) => ({ policy: findPolicy(id)! }));
const DIMENSION = { score: 5, verdict: "pass" };

/** A model client whose answers arrive a few event-loop turns later, recording the most calls in flight at once. */
function slowJudgeClient(): LlmClient & { maxInFlight: number; calls: number } {
  let inFlight = 0;
  const client = {
    id: "fake:judge",
    maxInFlight: 0,
    calls: 0,
    async complete(request: { messages: { content: string }[] }) {
      client.calls++;
      client.maxInFlight = Math.max(client.maxInFlight, ++inFlight);
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const unchanged = request.messages.at(-1)!.content.includes("- no edits: the prefix is unchanged");
      const verdict = {
        valid: unchanged,
        uncertain: false,
        overall_score: unchanged ? 5 : 2,
        summary: "stub",
        dimension_scores: { goal_retention: DIMENSION, evidence_retention: DIMENSION, continuation_readiness: DIMENSION, compression_safety: DIMENSION },
        failure_culprit: null,
      };
      return { text: JSON.stringify(verdict), model: "judge-1" };
    },
  };
  return client;
}

async function run(concurrency: number): Promise<{ items: SuiteItem[]; client: ReturnType<typeof slowJudgeClient>; views: JudgedUnitView[] }> {
  const client = slowJudgeClient();
  const views: JudgedUnitView[] = [];
  const items: SuiteItem[] = [];
  const judge = judgeUnitsWith(createLlmJudge(client));
  for await (const item of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, concurrency, judge: (view) => (views.push(view), judge(view)) }))
    items.push(item);
  return { items, client, views };
}

const strip = (items: SuiteItem[]) =>
  items.map((i) =>
    i.kind === "result"
      ? { key: i.key, noImpact: i.evaluation.noImpact, pruneRate: i.evaluation.pruneRate, verdict: i.evaluation.verdict }
      : { key: i.key, error: i.message },
  );

test("4 units in flight give the sequential run's items, in plan order, with one judge call per unit", async () => {
  const sequential = await run(1);
  const parallel = await run(4);
  assert.ok(sequential.items.length >= 6, `units: ${sequential.items.length}`);
  assert.equal(sequential.client.maxInFlight, 1);
  assert.equal(parallel.client.maxInFlight, 4, "the pool kept 4 judge calls in flight");
  assert.deepEqual(strip(parallel.items), strip(sequential.items));
  assert.equal(parallel.client.calls, parallel.items.length);
  assert.deepEqual(
    parallel.items.map((i) => i.progress.done),
    parallel.items.map((_, n) => n + 1),
    "progress counts up in plan order",
  );
  for (const item of parallel.items) {
    assert.ok(item.kind === "result");
    assert.equal(item.evaluation.noImpact, item.evaluation.policy === "none" || item.evaluation.tokensAfter === item.evaluation.prefixTokens, item.key);
    assert.equal(item.evaluation.netPruneRate, undefined, "an LLM verdict names no restores");
  }
});

test("an error the caller calls fatal ends the run; other errors fail their unit only", async () => {
  const down = new Error("endpoint down");
  const failing = async () => {
    throw down;
  };
  const items: SuiteItem[] = [];
  for await (const item of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, concurrency: 2, judge: failing })) items.push(item);
  assert.ok(items.length > 0 && items.every((i) => i.kind === "error" && i.message === "endpoint down"));
  await assert.rejects(
    (async () => {
      for await (const _ of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, concurrency: 2, judge: failing, isFatal: (e) => e === down }))
        void _;
    })(),
    /endpoint down/,
  );
});

test("with a judge no dependency is extracted or checked (its verdict is replaced); with onView the views keep their checks", async () => {
  const judge = judgeUnitsWith(createLlmJudge(slowJudgeClient()));
  const seen: JudgedUnitView[] = [];
  for await (const _ of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, judge: (view) => (seen.push(view), judge(view)) })) void _;
  assert.ok(seen.length > 0 && seen.every((v) => v.dependencies.dependencies.length === 0 && v.checked.length === 0));
  const exported: JudgedUnitView[] = [];
  for await (const _ of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, judge, onView: (view) => void exported.push(view) })) void _;
  assert.ok(
    exported.some((v) => v.dependencies.dependencies.length > 0 && v.checked.length > 0),
    "the views export still carries the dependency checks",
  );
});
