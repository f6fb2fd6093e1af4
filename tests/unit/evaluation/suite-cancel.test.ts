import assert from "node:assert/strict";
import { test } from "node:test";
import { evaluateSuite, type SuiteItem } from "../../../lib/evaluation/runner/evaluate-suite";
import { createLlmJudge } from "../../../lib/evaluation/llm-judge";
import { judgeUnitsWith } from "../../../lib/evaluation/runner/llm-judge-unit";
import type { LlmClient, LlmRequest } from "../../../lib/llm/types";
import { findPolicy } from "../../../lib/compaction/policies/registry";
import { cachedTokenizer } from "../../../lib/tokens";
import { withSignal } from "../../../server/llm/with-signal";
import { scenarioSuite } from "./scenario-recall";

/**
 * Cancelling a judged suite (issue 13: cancellation): the engine's signal stops the loop without
 * waiting for the units in flight, and the same signal given to the model client reaches every
 * pending call. The fake endpoint never answers on its own, so a suite that waited for it would
 * never end: the tests carry a timeout so that failure ends the run instead of hanging it.
 */
const tokenizer = cachedTokenizer("o200k");
const sessions = scenarioSuite([1]).map(({ scenario, index }) => ({ session: scenario.session, index }));
const policies = ["none", "tool-prune", "oldest-turn"].map((id) => ({ policy: findPolicy(id)! }));

/** An endpoint that holds every call until its signal aborts; `onCall` fires as each call arrives. */
function holdingClient(onCall: (pending: number) => void): LlmClient & { requests: LlmRequest[]; aborted: number } {
  const client = {
    id: "fake:judge",
    requests: [] as LlmRequest[],
    aborted: 0,
    complete(request: LlmRequest) {
      client.requests.push(request);
      const done = new Promise<never>((_, reject) => {
        const abort = () => {
          client.aborted++;
          reject(new Error("aborted"));
        };
        if (request.signal?.aborted) abort();
        else request.signal?.addEventListener("abort", abort);
      });
      onCall(client.requests.length);
      return done;
    },
  };
  return client;
}

test("an aborted suite ends at once, yields nothing more, and every pending model call gets the abort", { timeout: 60_000 }, async () => {
  const controller = new AbortController();
  const client = holdingClient((pending) => pending === 4 && controller.abort());
  const judge = judgeUnitsWith(createLlmJudge(withSignal(client, controller.signal)));
  const items: SuiteItem[] = [];
  for await (const item of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, concurrency: 4, judge, signal: controller.signal }))
    items.push(item);
  assert.deepEqual(items, [], "the four units cut short are dropped, not stored as failed units");
  assert.equal(client.requests.length, 4, "no unit starts after the abort");
  assert.ok(
    client.requests.every((r) => r.signal?.aborted === true),
    "every call carried the run's signal",
  );
  assert.equal(client.aborted, 4, "each pending call saw the abort");
});

test("a judge that ignores the signal does not hold the suite: the pool returns without its answer", { timeout: 60_000 }, async () => {
  const controller = new AbortController();
  let calls = 0;
  const never = () => {
    if (++calls === 2) controller.abort();
    return new Promise<never>(() => {});
  };
  const items: SuiteItem[] = [];
  for await (const item of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, concurrency: 2, judge: never, signal: controller.signal }))
    items.push(item);
  assert.deepEqual([items.length, calls], [0, 2]);
});

test("units finished before the abort are yielded; a signal aborted before the start runs nothing", async () => {
  const controller = new AbortController();
  const items: SuiteItem[] = [];
  for await (const item of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, signal: controller.signal })) {
    items.push(item);
    if (items.length === 2) controller.abort();
  }
  assert.equal(items.length, 2);
  assert.deepEqual(
    items.map((i) => i.kind),
    ["result", "result"],
  );
  const none: SuiteItem[] = [];
  for await (const item of evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, signal: controller.signal })) none.push(item);
  assert.deepEqual(none, []);
});
