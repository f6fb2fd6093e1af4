import assert from "node:assert/strict";
import { test } from "node:test";
import { findPolicy } from "@/lib/compaction/policies/registry";
import { rolloutSession, type RolloutSessionResult } from "@/lib/rollout/rollout-session";
import { rolloutFigures } from "@/lib/rollout/rollout-figures";
import { generateScenario } from "@/lib/scenario";
import { WORKLOAD_IDS } from "@/lib/scenario/types";
import { cachedTokenizer } from "@/lib/tokens";
import type { Session } from "@/lib/trace/model";
import { loadAllTraces } from "../../helpers/load-traces";

/**
 * Issue 14 item 1: the rollout judges every commit from one dependency index of the session
 * (`judgeExtraction: "session-index"`, linear) instead of extracting the commit's whole
 * continuation again (`"per-commit"`, the former path, quadratic). The verdicts must not move:
 * every judged round's checked dependencies (value, kind, status, usedAt, plantedAt, and every
 * other field, in order), the lost steps, the restores, and the drift per round are the same.
 */
const POLICIES = ["tool-prune", "oldest-turn", "self-gc", "hybrid", "discard-all"];
const tokenizer = cachedTokenizer("o200k");

/** Everything the judge decides in a rollout, without the round's index-mapping function. */
function judged(result: RolloutSessionResult) {
  return {
    rounds: result.rounds.map(({ toOriginal: _toOriginal, ...round }) => round),
    lostSteps: result.lostSteps,
    restores: result.restores,
    calls: result.calls,
    drift: rolloutFigures(result.policy, [{ result }]).drift,
  };
}

/** Rollouts both ways under every policy; what the reference judged, so the test can say it compared something. */
async function assertSameVerdicts(session: Session, window: number, label: string) {
  const seen = { rounds: 0, nonVisible: 0, lostSteps: 0, restores: 0 };
  for (const id of POLICIES) {
    const policy = findPolicy(id)!;
    const reference = await rolloutSession(session, policy, { window, tokenizer, judgeExtraction: "per-commit" });
    const indexed = await rolloutSession(session, policy, { window, tokenizer });
    assert.deepEqual(judged(indexed), judged(reference), `${label} under ${id}`);
    seen.rounds += reference.rounds.length;
    seen.nonVisible += reference.rounds.reduce((n, r) => n + r.checked.filter((d) => d.status !== "visible").length, 0);
    seen.lostSteps += reference.lostSteps.length;
    seen.restores += reference.restores.length;
  }
  return seen;
}

const add = (a: Awaited<ReturnType<typeof assertSameVerdicts>>, b: typeof a) => {
  for (const key of Object.keys(a) as (keyof typeof a)[]) a[key] += b[key];
};

test("every real trace: the session index gives every commit the same verdicts as extracting its whole continuation", async () => {
  const seen = { rounds: 0, nonVisible: 0, lostSteps: 0, restores: 0 };
  for (const { entry, sessions } of await loadAllTraces()) {
    for (const { session, index } of sessions) {
      const total = index.prefixTokens[session.messages.length]!;
      // A window of a quarter of the session (at least 2,000 tokens) makes long sessions commit several times.
      const window = Math.max(2_000, Math.min(32_000, Math.floor(total / 4)));
      add(seen, await assertSameVerdicts(session, window, `${entry.path} ${session.id}`));
    }
  }
  // The comparison has something to compare: thousands of commits, and dependencies the views lost or folded.
  assert.ok(seen.rounds >= 1_000, `${seen.rounds} judged rounds`);
  assert.ok(seen.nonVisible >= 1_000, `${seen.nonVisible} non-visible dependencies`);
  assert.ok(seen.lostSteps > 0 && seen.restores > 0, JSON.stringify(seen));
});

test("generated sessions of every workload: same verdicts, lost steps, restores and drift from the session index", async () => {
  const seen = { rounds: 0, nonVisible: 0, lostSteps: 0, restores: 0 };
  for (const workload of WORKLOAD_IDS) {
    const { session } = generateScenario({ workload, seed: 7, targetTokens: 150_000 });
    add(seen, await assertSameVerdicts(session, 16_000, `${workload} seed 7`));
  }
  assert.ok(seen.rounds >= 50, `${seen.rounds} judged rounds`);
  assert.ok(seen.lostSteps > 0 && seen.restores > 0, JSON.stringify(seen));
});
