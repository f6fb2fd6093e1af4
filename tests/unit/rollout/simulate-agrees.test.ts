import assert from "node:assert/strict";
import { test } from "node:test";
import { simulateSuite } from "@/lib/online/simulation/simulate-suite";
import { findPolicy } from "@/lib/compaction/policies/registry";
import { rolloutSuite } from "@/lib/rollout/rollout-suite";
import { generateScenario } from "@/lib/scenario/generate";
import { createAnalyzer } from "@/lib/analysis/analyze";

/*
 * The online page's *Simulate from traces* (simulateSuite) runs on the rollout engine: for the same
 * sessions and settings its per-call prompt series — restores included — and its reduction equal
 * `tracefold rollout`'s, and so do its lost steps and restores.
 */
test("simulate and rollout give the same per-call prompts and reduction on the same sessions", async () => {
  const items = [1, 2]
    .map((seed) => generateScenario({ workload: "spreadsheet-repair", seed }).session)
    .map((session) => ({ session, tokenizer: createAnalyzer().tokenizerFor(session) }));
  for (const id of ["oldest-turn", "tool-prune"]) {
    const policy = findPolicy(id)!;
    const simulated = await simulateSuite(items, policy, { trigger: 0.8 });
    const rolled = await rolloutSuite(items, [policy], { trigger: 0.8 });
    assert.equal(simulated.sessions.length, rolled.sessions.length);
    simulated.sessions.forEach((s, i) => {
      const r = rolled.sessions[i]!.policies[0]!;
      assert.deepEqual(
        s.series.map(([without, withPolicy]) => [without, withPolicy]),
        r.series.map(([without, withPolicy]) => [without, withPolicy]),
        `${id} ${s.session}`,
      );
      assert.equal(s.compactions, r.compactions);
      assert.deepEqual([s.lostSteps, s.restores], [r.lostSteps, r.restores], `${id} ${s.session}: lost steps and restores`);
    });
    assert.equal(simulated.pooled.calls, rolled.policies[0]!.calls);
    assert.deepEqual(
      [simulated.pooled.lostSteps, simulated.pooled.lostStepsPer100, simulated.pooled.restores],
      [rolled.policies[0]!.lostSteps, rolled.policies[0]!.lostStepsPer100, rolled.policies[0]!.restores],
      `${id}: the online page's lost steps are the rollout's`,
    );
    if (id === "tool-prune") assert.ok(rolled.policies[0]!.lostSteps > 0, "the pruning policy lost something, so the comparison is not of zeros");
    if (id === "oldest-turn") assert.ok(rolled.policies[0]!.restores > 0, "the folding policy restored something, so restores are in both series");
  }
});
