import assert from "node:assert/strict";
import { test } from "node:test";
import { safeCutPoints } from "../../../../lib/compaction/policies/cut-points";
import { POLICIES } from "../../../../lib/compaction/policies/registry";
import { windowAtLevel } from "../../../../lib/compaction/policies/select-cut";
import { runPolicy } from "../../../../lib/compaction/policies/run-policy";
import { cachedTokenizer } from "../../../../lib/tokens";
import type { AnalyzedSession } from "../../../../lib/analysis/analyze";
import { loadAllTraces, loadEveryTrace } from "../../../helpers/load-traces";
import { checkInvariants } from "./check-invariants";

const tokenizer = cachedTokenizer("o200k");

/** Cut points the replay protocol uses: where the prefix first reaches 50/70/90% of the session. */
function sampleCuts(s: AnalyzedSession): number[] {
  const cuts = safeCutPoints(s.session);
  const total = s.index.prefixTokens.at(-1)!;
  const picked = new Set<number>();
  for (const share of [0.5, 0.7, 0.9]) {
    const cut = cuts.find((k) => s.index.prefixTokens[k]! >= share * total);
    if (cut !== undefined) picked.add(cut);
  }
  for (const c of s.session.compactions) {
    const cut = cuts.filter((k) => k <= c.beforeMessage).at(-1);
    if (cut !== undefined) picked.add(cut);
  }
  return [...picked];
}

test("every policy holds the harness invariants on every real trace at the replay cut points", async () => {
  const traces = await loadEveryTrace();
  let runs = 0;
  for (const { entry, sessions } of traces) {
    for (const s of sessions) {
      for (const cut of sampleCuts(s)) {
        const window = windowAtLevel(s.index.prefixTokens[cut]!);
        for (const policy of POLICIES) {
          const where = `${policy.id} on ${entry.path}#${s.session.id} cut ${cut}`;
          const input = { session: s.session, index: s.index, cut, window, tokenizer };
          const result = await runPolicy(policy, input);
          checkInvariants(s, result, where);
          runs++;
        }
      }
    }
  }
  assert.ok(runs > POLICIES.length * 100, `only ${runs} policy runs`);
});

test("every policy is deterministic: the same input gives the same view", async () => {
  const traces = await loadAllTraces();
  const long = traces.find((t) => t.entry.path.includes("258c7280") && !t.entry.path.includes("subagents"))!;
  const s = long.sessions[0]!;
  for (const cut of sampleCuts(s)) {
    const window = windowAtLevel(s.index.prefixTokens[cut]!);
    for (const policy of POLICIES) {
      const a = await runPolicy(policy, { session: s.session, index: s.index, cut, window, tokenizer });
      const b = await runPolicy(policy, { session: s.session, index: s.index, cut, window, tokenizer });
      assert.deepEqual(a, b, `${policy.id} at cut ${cut}`);
    }
  }
});
