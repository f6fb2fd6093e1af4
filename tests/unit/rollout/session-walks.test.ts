import assert from "node:assert/strict";
import { test } from "node:test";
import { findPolicy } from "@/lib/compaction/policies/registry";
import { MODEL_PRICES } from "@/lib/rollout/model-prices";
import { poolRolloutWalks, rolloutSessionWalks, type RolloutSessionWalks } from "@/lib/rollout/rollout-session-walks";
import { rolloutSuite } from "@/lib/rollout/rollout-suite";
import { generateScenario } from "@/lib/scenario/generate";
import { WORKLOAD_IDS } from "@/lib/scenario/types";
import { createAnalyzer } from "@/lib/analysis/analyze";

/*
 * The studio's rollout job walks one session at a time and stores each (JSON) before the next; pooled
 * afterwards, the stored walks must give rolloutSuite's report to the last digit — costs included,
 * which are floating-point sums, so the generated sessions are priced here.
 */
const POLICIES = ["self-gc", "tool-prune", "oldest-turn", "none"].map((id) => findPolicy(id)!);

function items() {
  return WORKLOAD_IDS.flatMap((workload) => [1, 2].map((seed) => generateScenario({ workload, seed }).session)).map((session) => ({
    session,
    tokenizer: createAnalyzer().tokenizerFor(session),
    source: `${session.id}.jsonl`,
  }));
}

test("sessions walked one by one, stored as JSON and pooled in order equal rolloutSuite's report", async () => {
  const options = {
    trigger: 0.8,
    cacheTtlMs: 3_600_000,
    prices: { kind: "fixed" as const, prices: MODEL_PRICES["claude-sonnet-4"]!, label: "claude-sonnet-4" },
  };
  const suite = await rolloutSuite(items(), POLICIES, options);
  const stored: RolloutSessionWalks[] = [];
  for (const item of items()) stored.push(JSON.parse(JSON.stringify(await rolloutSessionWalks(item, POLICIES, options))) as RolloutSessionWalks);
  const pooled = poolRolloutWalks(
    stored,
    POLICIES.map((p) => p.id),
    options,
  );
  assert.deepEqual(pooled, suite);
  assert.ok(suite.policies.every((p) => p.cost !== null && p.calls > 0));
  assert.ok(suite.policies.find((p) => p.id === "tool-prune")!.lostSteps > 0, "the planted dependencies make tool-prune lose something");
});

test("a stored walk keeps only the rounds' numbers and messages, not the judged dependencies or sidecar payloads", async () => {
  const [item] = items();
  const { walks } = await rolloutSessionWalks(item!, [findPolicy("oldest-turn")!]);
  const rounds = walks[0]!.result.rounds;
  assert.ok(rounds.length > 0);
  for (const round of rounds) assert.deepEqual(Object.keys(round).sort(), ["message", "round"]);
});
