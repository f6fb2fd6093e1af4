import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import type { RolloutWorkerRow } from "./rollout-worker";
import { round } from "./tokens";

/** The policies timed: a pruning one, a folding one and self-gc. */
export const ROLLOUT_BENCH_POLICIES = ["tool-prune", "oldest-turn", "self-gc"];

/** A worker's row (rollout-worker.ts) with the size, the policy and the ratio to the previous size. */
export interface RolloutBenchRow extends RolloutWorkerRow {
  policy: string;
  targetTokens: number;
  callsPerSecond: number;
  /** seconds / the previous (half-as-long) session's seconds. */
  timeRatio: number | null;
}

/**
 * Rollout throughput (issue 14): generated sessions of growing length walked whole under each
 * policy in a fixed context window (as a harness has: commits grow with the session), every commit
 * judged, against the same walk unjudged. Reports calls per second, commits, calls over the window
 * and the time ratio to the previous, half-as-long session (each size and policy in its own process,
 * rollout-worker.ts: the fastest of 3–9 runs after an unmeasured
 * warm-up). The walk costs a pass per commit over the working session (about a window) and the
 * judge, from one dependency index of the session, about each commit's prefix plus its answer, so
 * the ratio stays near 2 while commits per call stay flat; a policy whose committed view stays over
 * the window fires (and plans) at every call, so its work per call grows with the session.
 */
export async function benchRollout(sizes: number[], window: number): Promise<RolloutBenchRow[]> {
  const rows: RolloutBenchRow[] = [];
  const previous = new Map<string, number>();
  for (const targetTokens of sizes) {
    for (const id of ROLLOUT_BENCH_POLICIES) {
      const measured = runWorker(targetTokens, id, window);
      const before = previous.get(id);
      previous.set(id, measured.seconds);
      rows.push({
        policy: id,
        targetTokens,
        ...measured,
        walkSeconds: round(measured.walkSeconds),
        seconds: round(measured.seconds),
        callsPerSecond: round(measured.calls / measured.seconds),
        timeRatio: before === undefined ? null : round(measured.seconds / before),
      });
    }
  }
  return rows;
}

/** One (size, policy) measured in its own process (rollout-worker.ts says why). */
function runWorker(targetTokens: number, policy: string, window: number): RolloutWorkerRow {
  const run = spawnSync(process.execPath, ["--import", "tsx", resolve(__dirname, "rollout-worker.ts"), String(targetTokens), policy, String(window)], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (run.status !== 0) throw new Error(`rollout worker (${policy}, ${targetTokens} tokens) failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as RolloutWorkerRow;
}

/**
 * Why a policy is not held to the linear bound, or undefined when it is: its prompt stays over the
 * window on a growing share of calls (then its trigger fires, and it plans over a growing head, at
 * every such call — its decisions, not the engine, make the work per call grow).
 */
export function exemptionOf(rows: readonly RolloutBenchRow[], policy: string): string | undefined {
  const of = rows.filter((r) => r.policy === policy);
  const share = (r: RolloutBenchRow) => r.overflowCalls / Math.max(1, r.calls);
  const first = of[0]!;
  const last = of[of.length - 1]!;
  if (share(last) <= share(first) + 0.1) return undefined;
  const pct = (r: RolloutBenchRow) => `${Math.round(100 * share(r))}%`;
  const rate = (r: RolloutBenchRow) => `${Math.round((100 * r.commits) / Math.max(1, r.calls))}%`;
  return (
    `${policy}: its committed view leaves the prompt over the window at ${pct(first)} of calls at ${first.targetTokens / 1000}K tokens and ` +
    `${pct(last)} at ${last.targetTokens / 1000}K (commits at ${rate(first)} → ${rate(last)} of calls); it fires and plans at each such call, ` +
    `over a head that grows with the session — its decisions, not the engine's`
  );
}

/** The bound: doubling the session at most `max`× the time, on every timed policy not exempt (`exemptionOf`). */
export function assertRolloutLinear(rows: readonly RolloutBenchRow[], max: number): void {
  for (const policy of ROLLOUT_BENCH_POLICIES) {
    const exempt = exemptionOf(rows, policy);
    if (exempt) {
      console.log(`rollout: not bound — ${exempt}`);
      continue;
    }
    const worst = Math.max(...rows.filter((r) => r.policy === policy).map((r) => r.timeRatio ?? 0));
    if (worst > max) throw new Error(`rollout: doubling the session took ${policy} ${worst}× the time, over the ${max}× bound`);
  }
}
