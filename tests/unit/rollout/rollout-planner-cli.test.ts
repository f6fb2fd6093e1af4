import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { UsageError } from "@/cli/args";
import { parseRolloutArgs } from "@/cli/commands/rollout";
import { tracefoldCommandAsync } from "../../helpers/eval-cli";
import { promptOf, startLlmStub, stubPlannerEnv, type RecordedRequest } from "../../helpers/llm-stub-server";
import { TRACES_DIR } from "../../helpers/traces";

const DIR = join(TRACES_DIR, "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project");

/** `tracefold rollout`, asynchronous so the stub server in this process can answer while the CLI runs. */
const rollout = (args: string[], extra: Record<string, string> = {}) => tracefoldCommandAsync("rollout", args, extra);

/** Self-GC's planner prompt gets a plan folding every function turn it shows. */
const isPlannerCall = (request: RecordedRequest) => promptOf(request).system.includes("DECIDE IN THIS ORDER");
function stubPlan(request: RecordedRequest): string {
  const shown = promptOf(request).messages.at(-1)?.content ?? "";
  const ids = new Set([...shown.matchAll(/<turn id="function:([a-z_]+:\d+)"/g)].map((m) => m[1]!));
  return `<above_conversation_summary>Stub planner.</above_conversation_summary>\n<gc_plan>${[...ids].map((id) => `<fold kind="function" reason="stable_artifact">${id}</fold>`).join("")}</gc_plan>`;
}

interface Planner {
  rounds: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cost: number | null;
  unpricedRounds: number;
}
interface Figures {
  id: string;
  cost: { without: number; with: number } | null;
  planner: Planner;
  plannerRounds?: { call: number; inputTokens: number; outputTokens: number; cachedInputTokens: number; cost: number | null; committed: boolean }[];
}

test("rollout --planner llm: every planner call is a round, its tokens and the endpoint's price in planner, per policy and per session", async () => {
  const stub = await startLlmStub(stubPlan);
  try {
    // $2 per million input tokens, $8 per million output: the stub's 11 in and 7 out cost 78 micro-USD a call.
    const run = await rollout([DIR, "--policies", "self-gc,tool-prune", "--planner", "llm", "--json"], stubPlannerEnv(stub));
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      policies: Figures[];
      sessions: { policies: Figures[] }[];
      llmUsage: { planner: { calls: number; inputTokens: number; outputTokens: number; costUsd: number } };
    };
    const calls = stub.requests.length;
    assert.ok(calls > 0, "self-gc's trigger fired and the planner was asked");
    assert.equal(stub.requests.filter(isPlannerCall).length, calls, "only the planner calls a model");
    const [selfGc, toolPrune] = out.policies;
    assert.deepEqual(selfGc!.planner, {
      rounds: calls,
      inputTokens: 11 * calls,
      outputTokens: 7 * calls,
      cachedInputTokens: 0,
      cost: Math.round(calls * 78) / 1e6,
      unpricedRounds: 0,
    });
    assert.deepEqual(toolPrune!.planner, { rounds: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cost: 0, unpricedRounds: 0 });
    assert.deepEqual(
      [out.llmUsage.planner.calls, out.llmUsage.planner.inputTokens, out.llmUsage.planner.outputTokens],
      [calls, 11 * calls, 7 * calls],
      "the planner figures are what the endpoint was asked",
    );
    // Per session: each session's rounds add up to the pool's.
    const mine = out.sessions.map((s) => s.policies.find((p) => p.id === "self-gc")!.planner);
    assert.equal(
      mine.reduce((a, p) => a + p.rounds, 0),
      calls,
    );
    assert.ok(Math.abs(mine.reduce((a, p) => a + (p.cost ?? 0), 0) - calls * 78e-6) < 1e-9);
    // Per round, in each session: the stub's usage and price, committed or not.
    for (const session of out.sessions) {
      const [gc, prune] = session.policies;
      assert.equal(prune!.plannerRounds, undefined, "no planner, no rounds listed");
      const rounds = gc!.plannerRounds ?? [];
      assert.equal(rounds.length, gc!.planner.rounds);
      for (const r of rounds) {
        assert.deepEqual([r.inputTokens, r.outputTokens, r.cachedInputTokens], [11, 7, 0]);
        assert.ok(Math.abs(r.cost! - 78e-6) < 1e-12, String(r.cost));
      }
    }
    // The Claude sessions are priced, so cost.with bills the planner too: it is at least the planner's cost above zero calls.
    assert.ok(selfGc!.cost !== null && selfGc!.cost.with >= selfGc!.planner.cost!);
  } finally {
    await stub.close();
  }
});

test("rollout --planner llm without an endpoint says what to set (exit 1, as eval); it needs self-gc; a bad planner is refused", async () => {
  const run = await rollout([DIR, "--policies", "self-gc", "--planner", "llm", "--json"]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^tracefold rollout: --planner llm needs a model endpoint and none is configured: set TRACEFOLD_LLM_PROVIDER/);
  assert.equal(run.stdout, "");
  for (const [args, pattern] of [
    [[DIR, "--policies", "tool-prune", "--planner", "llm"], /--planner llm chooses Self-GC's planner: add self-gc to --policies/],
    [[DIR, "--policies", "self-gc", "--planner", "gpt"], /unknown --planner gpt; expected rule-based or llm/],
  ] as const)
    assert.throws(
      () => parseRolloutArgs([...args]),
      (error: unknown) => error instanceof UsageError && pattern.test(error.message),
    );
  assert.deepEqual(parseRolloutArgs([DIR, "--policies", "self-gc", "--planner", "llm", "--param", "self-gc.targetShare=0.5"]).params, {
    "self-gc": { targetShare: 0.5, planner: "llm" },
  });
  assert.equal(parseRolloutArgs([DIR, "--policies", "self-gc"]).planner, "rule-based");
});
