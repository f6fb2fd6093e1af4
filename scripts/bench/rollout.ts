import { findPolicy } from "../../lib/compaction/policies/registry";
import { rolloutSession } from "../../lib/rollout/rollout-session";
import { generateScenario } from "../../lib/scenario";
import { cachedTokenizer } from "../../lib/tokens";
import { round } from "./tokens";

/** The policies timed: a pruning one, a folding one and self-gc. */
export const ROLLOUT_BENCH_POLICIES = ["tool-prune", "oldest-turn", "self-gc"];
/** The policy the linear bound is checked on: its commit rate per call stays flat as sessions grow. */
export const ROLLOUT_LINEAR_POLICY = "tool-prune";

/**
 * Rollout throughput (issue 14): generated sessions of growing length walked whole under each
 * policy in a fixed context window (as a harness has: commits grow with the session), every commit
 * judged. Reports calls per second, commits, calls over the window, and the time ratio to the
 * previous, half-as-long session. The engine's cost is a pass per commit over the working session
 * plus one judge pass over the commit's continuation, so the ratio stays near 2 only while commits
 * per call stay flat and the judge's continuation is short; policies that commit more often as the
 * session grows, or let the prompt outgrow the window, show it here.
 */
export async function benchRollout(sizes: number[], window: number) {
  const tokenizer = cachedTokenizer("o200k");
  const rows = [];
  const previous = new Map<string, number>();
  for (const targetTokens of sizes) {
    const { session } = generateScenario({ workload: "scheduled-task-debug", seed: 7, targetTokens });
    for (const id of ROLLOUT_BENCH_POLICIES) {
      const t0 = performance.now();
      const result = await rolloutSession(session, findPolicy(id)!, { window, tokenizer });
      const seconds = (performance.now() - t0) / 1000;
      const before = previous.get(id);
      previous.set(id, seconds);
      rows.push({
        policy: id,
        targetTokens,
        messages: session.messages.length,
        calls: result.calls.length,
        commits: result.compactions.length,
        overflowCalls: result.calls.filter((c) => c.with.input > window).length,
        restores: result.restores.length,
        lostSteps: result.lostSteps.length,
        seconds: round(seconds),
        callsPerSecond: round(result.calls.length / seconds),
        timeRatio: before === undefined ? null : round(seconds / before),
      });
    }
  }
  return rows;
}

/** The bound on the linear policy: doubling the session at most `max`× the time. */
export function assertRolloutLinear(rows: { policy: string; timeRatio: number | null }[], max: number): void {
  const worst = Math.max(...rows.filter((r) => r.policy === ROLLOUT_LINEAR_POLICY).map((r) => r.timeRatio ?? 0));
  if (worst > max) throw new Error(`rollout: doubling the session took ${ROLLOUT_LINEAR_POLICY} ${worst}× the time, over the ${max}× bound`);
}
