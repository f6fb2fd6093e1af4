import assert from "node:assert/strict";
import { test } from "node:test";
import { policyNeedsLlm } from "../../../../lib/compaction/policies/needs-llm";
import { POLICIES } from "../../../../lib/compaction/policies/registry";
import { createSelfCompactPolicy } from "../../../../lib/compaction/policies/summary/self-compact";

test("self-gc needs the LLM only with planner=llm", () => {
  assert.equal(policyNeedsLlm("self-gc", { planner: "llm" }), true);
  assert.equal(policyNeedsLlm("self-gc", { planner: "llm", cacheAware: false }), true);
  assert.equal(policyNeedsLlm("self-gc"), false, "the default planner is the embedded rule-based one");
  assert.equal(policyNeedsLlm("self-gc", { planner: "rule-based" }), false);
});

test("no other registered policy calls the model with its defaults", () => {
  const calling = POLICIES.filter((p) => policyNeedsLlm(p.id)).map((p) => p.id);
  assert.deepEqual(calling, []);
  assert.equal(policyNeedsLlm("self-compact"), false, "the registered Self-Compact uses the embedded deterministic rubric");
});

test("unknown policies and parameters that do not resolve stay on the synchronous path, which refuses them", () => {
  assert.equal(policyNeedsLlm("no-such-policy", { planner: "llm" }), false);
  assert.equal(policyNeedsLlm("self-gc", { planner: 1 }), false, "a wrong type is refused synchronously as invalid_params");
  assert.equal(policyNeedsLlm("self-gc", { planner: "llm", noSuchParam: 1 }), false);
});

test("self-compact declares a model call only when built with an LLM rubric", () => {
  const client = { id: "stub", complete: async () => assert.fail("not called") };
  assert.equal(createSelfCompactPolicy().callsModel?.({}) ?? false, false);
  assert.equal(createSelfCompactPolicy({ rubric: client }).callsModel?.({}), true);
});
