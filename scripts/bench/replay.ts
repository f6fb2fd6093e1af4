import { buildContextIndex } from "../../lib/compaction/context/objects";
import { safeCutPoints } from "../../lib/compaction/policies/cut-points";
import { POLICIES } from "../../lib/compaction/policies/registry";
import { windowAtLevel } from "../../lib/compaction/policies/select-cut";
import { runPolicy } from "../../lib/compaction/policies/run-policy";
import { generateScenario } from "../../lib/scenario";
import { cachedTokenizer } from "../../lib/tokens";
import { round } from "./tokens";

/**
 * Replay throughput: every policy at every 10th safe cut of generated sessions of growing length.
 * Reports runs per second and microseconds per run per 1K prefix messages, which stays flat when
 * cost grows linearly with session length.
 */
export async function benchReplay(sizes: number[]) {
  const tokenizer = cachedTokenizer("o200k");
  const rows = [];
  for (const targetTokens of sizes) {
    const { session } = generateScenario({ workload: "scheduled-task-debug", seed: 7, targetTokens });
    const index = buildContextIndex(session, tokenizer);
    const cuts = safeCutPoints(session).filter((_, i) => i % 10 === 9);
    let runs = 0;
    let prefixMessages = 0;
    const t0 = performance.now();
    for (const cut of cuts) {
      const window = windowAtLevel(index.prefixTokens[cut]!);
      for (const policy of POLICIES) {
        if (policy.id === "self-gc-llm") continue;
        await runPolicy(policy, { session, index, cut, window, tokenizer });
        runs++;
        prefixMessages += cut;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    rows.push({
      sessionTokens: index.prefixTokens.at(-1)!,
      messages: session.messages.length,
      cuts: cuts.length,
      policies: POLICIES.length,
      runs,
      runsPerSecond: round(runs / seconds),
      usPerRunPer1kMessages: round(((seconds * 1e6) / runs / (prefixMessages / runs)) * 1000),
    });
  }
  return rows;
}
