import assert from "node:assert/strict";
import { test } from "node:test";
import { findPolicy } from "@/lib/compaction/policies/registry";
import { rolloutSession } from "@/lib/rollout/rollout-session";
import { defaultSimWindow } from "@/lib/rollout/window";
import { generateScenario } from "@/lib/scenario/generate";
import { WORKLOAD_IDS } from "@/lib/scenario/types";
import { createAnalyzer } from "@/lib/analysis/analyze";

/*
 * Issue 14's planted-dependency check: generated sessions carry values a later step needs (their
 * ground truth). Rolled out whole, a pruning policy (tool-prune: tool outputs gone, no sidecar)
 * loses some of them at the step that needs them; a folding policy (oldest-turn: whole turns behind
 * a pointer, payload in a sidecar) loses none — the rollout restores them, and the restored tokens
 * are in the prompts that follow, exactly.
 */
const SEEDS = [1, 2, 3];

function scenarios() {
  return WORKLOAD_IDS.flatMap((workload) => SEEDS.map((seed) => generateScenario({ workload, seed })));
}

test("a pruning policy loses planted dependencies at the step that needs them; a folding policy restores them instead", async () => {
  let prunedLost = 0,
    foldedRestores = 0;
  for (const { session, groundTruth } of scenarios()) {
    const tokenizer = createAnalyzer().tokenizerFor(session);
    const window = defaultSimWindow(session, tokenizer);
    const plantedLost = (lost: { value: string }[]) => groundTruth.filter((g) => lost.some((l) => l.value.includes(g.anchor)));

    const pruned = await rolloutSession(session, findPolicy("tool-prune")!, { window, tokenizer });
    assert.ok(pruned.compactions.length >= 1, `${session.id}: tool-prune compacted`);
    assert.equal(pruned.restores.length, 0, "pruning leaves nothing to restore");
    for (const step of pruned.lostSteps) {
      // Charged to the call whose step used the value after the commit that lost it.
      assert.equal(pruned.calls[step.call]!.message, step.message);
      let end = step.message;
      while (session.messages[end]?.role === "assistant") end++;
      const stepText = JSON.stringify(session.messages.slice(step.message, end).map((m) => m.parts));
      for (const lost of step.lost) assert.ok(pruned.rounds[lost.round - 1]!.message <= step.message, `${session.id}: lost after its round's commit`);
      for (const planted of plantedLost(step.lost))
        assert.ok(stepText.includes(planted.anchor), `${session.id}: ${planted.id} is used in the step it is charged to`);
    }
    prunedLost += plantedLost(pruned.lostSteps.flatMap((s) => s.lost)).length;

    const folded = await rolloutSession(session, findPolicy("oldest-turn")!, { window, tokenizer });
    assert.deepEqual(
      plantedLost(folded.lostSteps.flatMap((s) => s.lost)).map((g) => g.id),
      [],
      `${session.id}: oldest-turn keeps every planted value visible or restorable`,
    );
    foldedRestores += folded.restores.length;

    // The restored payloads are in the prompts from the restore to the next commit, to the token.
    const bare = await rolloutSession(session, findPolicy("oldest-turn")!, { window, tokenizer, judge: false });
    const commits = folded.compactions.map((c) => c.call);
    folded.calls.forEach((call, i) => {
      const active = folded.restores.filter((r) => r.call <= i && !commits.some((c) => c > r.call && c <= i));
      assert.equal(
        call.with.input - bare.calls[i]!.with.input,
        active.reduce((a, r) => a + r.cost, 0),
        `${session.id} call ${i}`,
      );
      assert.equal(
        call.restoredTokens,
        folded.restores.filter((r) => r.call === i).reduce((a, r) => a + r.cost, 0),
      );
    });
    for (const r of folded.restores) assert.ok(r.tokens > 0 && r.cost > r.tokens);
  }
  assert.ok(prunedLost > 0, "tool-prune lost some planted dependency");
  assert.ok(foldedRestores > 0, "oldest-turn restored some sidecar");
});

test("the none policy never compacts: zero reduction, nothing lost, nothing restored, the same bill", async () => {
  for (const { session } of scenarios()) {
    const tokenizer = createAnalyzer().tokenizerFor(session);
    const result = await rolloutSession(session, findPolicy("none")!, { window: defaultSimWindow(session, tokenizer), tokenizer });
    assert.deepEqual([result.compactions.length, result.rounds.length, result.restores.length, result.lostSteps.length, result.reductionPct], [0, 0, 0, 0, 0]);
    assert.deepEqual(
      result.calls.map((c) => c.with),
      result.calls.map((c) => c.without),
    );
  }
});
