import { loadSessions } from "../../cli/evaluation/load-sessions";
import { replayCuts } from "../../lib/evaluation/cuts/cut-protocol";
import { evaluateSuite, type SuiteItem } from "../../lib/evaluation/runner/evaluate-suite";
import { createLlmJudge } from "../../lib/evaluation/llm-judge";
import { judgeUnitsWith } from "../../lib/evaluation/runner/llm-judge-unit";
import { findPolicy } from "../../lib/compaction/policies/registry";
import { createLlmClient } from "../../server/llm/client";
import { startSlowLlmStub } from "./slow-llm-stub";
import { round } from "./tokens";

/**
 * An LLM-judged suite through the one engine (lib/evaluation/runner/evaluate-suite.ts), the real LLM judge and
 * the real AI SDK client (openai-compatible) against a local endpoint that answers every call after
 * `delayMs`: once sequentially (concurrency 1) and once with `concurrency` units in flight, in the
 * same run, over the same units of real traces (self-gc and oldest-turn, the command).
 * The speedup's ceiling is the concurrency: policy runs and packets are CPU work between calls.
 * Both runs must give the same verdicts in the same order (`sameResults`). The endpoint runs in its
 * own process, as a remote one does, and an unmeasured first pass warms caches and connections.
 */
export async function benchLlmJudge(tracesDir: string, options: { units: number; delayMs: number; concurrency: number }) {
  const loaded = await loadSessions([tracesDir]);
  const policies = ["self-gc", "oldest-turn"].map((id) => ({ policy: findPolicy(id)! }));
  const sessions: typeof loaded.sessions = [];
  let units = 0;
  for (const s of loaded.sessions) {
    if (units >= options.units) break;
    const cuts = replayCuts(s.session, s.index, {}).length;
    if (cuts === 0) continue;
    sessions.push(s);
    units += cuts * policies.length;
  }
  const stub = await startSlowLlmStub(options.delayMs);
  try {
    const run = async (concurrency: number) => {
      const before = await stub.stats(true);
      const llm = createLlmClient({
        provider: "openai-compatible",
        baseUrl: stub.baseUrl,
        model: "bench-judge",
        timeoutMs: 60_000,
        maxRetries: 0,
        reasoning: "auto",
      });
      const judge = judgeUnitsWith(createLlmJudge(llm, { repairAttempts: 1 }));
      const items: SuiteItem[] = [];
      const t0 = performance.now();
      for await (const item of evaluateSuite({ sessions, policies, tokenizerFor: loaded.tokenizerFor, judge, concurrency })) items.push(item);
      const seconds = (performance.now() - t0) / 1000;
      const after = await stub.stats();
      const failed = items.filter((i) => i.kind === "error").length;
      return {
        row: {
          concurrency,
          units: items.length,
          failed,
          calls: after.requests - before.requests,
          maxInFlight: after.maxInFlight,
          seconds: round(seconds),
          unitsPerSecond: round(items.length / seconds),
        },
        items,
      };
    };
    // A first pass warms the JIT, the token caches and the connection pool: neither measured run pays for them.
    await run(options.concurrency);
    const sequential = await run(1);
    const concurrent = await run(options.concurrency);
    const digest = (items: SuiteItem[]) =>
      JSON.stringify(items.map((i) => (i.kind === "result" ? [i.key, i.evaluation.noImpact, i.evaluation.pruneRate] : [i.key, i.message])));
    return {
      sessions: sessions.length,
      delayMs: options.delayMs,
      table: [sequential.row, concurrent.row],
      speedup: round(sequential.row.seconds / concurrent.row.seconds),
      sameResults: digest(sequential.items) === digest(concurrent.items),
    };
  } finally {
    stub.close();
  }
}
