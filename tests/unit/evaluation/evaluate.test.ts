import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { replayCuts } from "../../../lib/evaluation/cuts/cut-protocol";
import { evaluateCut } from "../../../lib/evaluation/runner/evaluate-cut";
import { evaluateSuite, unitKey, type SuiteItem } from "../../../lib/evaluation/runner/evaluate-suite";
import { findPolicy } from "../../../lib/compaction/policies/registry";
import { runPolicy } from "../../../lib/compaction/policies/run-policy";
import type { Policy } from "../../../lib/compaction/policies/types";
import { scenarioSuite } from "./scenario-recall";
import { cachedTokenizer } from "../../../lib/tokens";

const tokenizer = cachedTokenizer("o200k");
const sessions = scenarioSuite([1]).map(({ scenario, index }) => ({ session: scenario.session, index }));
const policies = ["none", "tool-prune", "oldest-turn"].map((id) => ({ policy: findPolicy(id)! }));
const failing: Policy = {
  id: "broken",
  family: "baseline",
  source: "test",
  description: "throws",
  params: [],
  decide: () => {
    throw new Error("boom");
  },
};

async function collect(iterable: AsyncIterable<SuiteItem>): Promise<SuiteItem[]> {
  const out: SuiteItem[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("evaluateCut", () => {
  test("runs the policy with the window at the trigger level and judges it", async () => {
    const { session, index } = sessions[0]!;
    const cut = replayCuts(session, index)[0]!;
    const policy = findPolicy("tool-prune")!;
    const evaluation = await evaluateCut({ session, index, tokenizer, policy, cut });
    const direct = await runPolicy(policy, { session, index, cut: cut.cut, window: Math.floor(cut.prefixTokens / 0.9), tokenizer });
    assert.equal(evaluation.window, Math.floor(cut.prefixTokens / 0.9));
    assert.equal(evaluation.pruneRate, direct.pruneRate);
    assert.equal(evaluation.reason, cut.reason);
    assert.equal(evaluation.noImpact, evaluation.verdict.noImpact);
    const lower = await evaluateCut({ session, index, tokenizer, policy, cut, triggerLevel: 0.5 });
    assert.equal(lower.window, Math.floor(cut.prefixTokens / 0.5));
  });
});

describe("evaluateSuite", () => {
  test("yields every session × cut × policy in order with progress, and isolates a failing policy", async () => {
    const items = await collect(evaluateSuite({ sessions, policies: [...policies, { policy: failing }], tokenizerFor: () => tokenizer }));
    const cuts = sessions.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0);
    assert.equal(items.length, cuts * 4);
    assert.equal(items.at(-1)!.progress.done, items.at(-1)!.progress.total);
    assert.equal(items.at(-1)!.progress.failed, cuts);
    assert.ok(items.filter((i) => i.kind === "error").every((i) => i.kind === "error" && i.message === "boom" && i.policy === "broken"));
    for (const item of items) if (item.kind === "result" && item.evaluation.policy === "none") assert.equal(item.evaluation.noImpact, true);
    assert.equal(new Set(items.map((i) => i.key)).size, items.length, "keys are unique");
  });

  test("resumes: units already done are skipped and counted, the rest match a fresh run", async () => {
    const fresh = await collect(evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer }));
    const done = new Set(fresh.slice(0, 5).map((i) => i.key));
    const resumed = await collect(evaluateSuite({ sessions, policies, tokenizerFor: () => tokenizer, isDone: (key) => done.has(key) }));
    assert.equal(resumed.length, fresh.length - 5);
    assert.equal(resumed.at(-1)!.progress.skipped, 5);
    assert.equal(resumed.at(-1)!.progress.done, fresh.at(-1)!.progress.total);
    assert.deepEqual(
      resumed.map((i) => (i.kind === "result" ? [i.key, i.evaluation.noImpact, i.evaluation.pruneRate] : i.key)),
      fresh.slice(5).map((i) => (i.kind === "result" ? [i.key, i.evaluation.noImpact, i.evaluation.pruneRate] : i.key)),
    );
    const first = sessions[0]!;
    assert.equal(fresh[0]!.key, unitKey(first.session.id, replayCuts(first.session, first.index)[0]!.cut, policies[0]!));
  });
});
