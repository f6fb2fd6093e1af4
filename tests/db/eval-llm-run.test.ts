import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { JUDGE_CONTRACT } from "../../lib/evaluation/llm-judge";
import { JudgeVerdictSchema } from "../../lib/evaluation/judge/verdict-schema";
import { wilson } from "../../lib/stats/wilson";
import { createRun } from "../../server/evaluation/create-run";
import { getRunAggregates } from "../../server/evaluation/get-run-aggregates";
import { getCutEvidence, listRunCuts } from "../../server/evaluation/list-run-cuts";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { createLlmClient } from "../../server/llm/client";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { promptOf, startLlmStub, type LlmStub, type RecordedRequest } from "../helpers/llm-stub-server";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/**
 * Studio runs with judge=llm (server/evaluation/judge-unit-with-llm.ts) against the local stub endpoint. The stub
 * judge passes a cut exactly when the packet's plan shows no edits; the first two answers are prose,
 * so the first unit gets its one repair round, fails again and must be stored as a failed unit while
 * the run goes on.
 */
const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
];
const POLICIES = ["none", "tool-prune", "oldest-turn"];
const SETTINGS = { suite: { kind: "all" }, policies: POLICIES.map((id) => ({ id })), judge: "llm", triggerLevel: 0.9 };

function packetOf(request: RecordedRequest): string {
  return (request.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === "user")?.content ?? "";
}

function stubVerdict(request: RecordedRequest): string {
  const unchanged = packetOf(request).includes("- no edits: the prefix is unchanged");
  const score = (n: number) => ({ score: n, verdict: n >= 4 ? "pass" : "fail" });
  return JSON.stringify({
    valid: unchanged,
    uncertain: false,
    overall_score: unchanged ? 5 : 2,
    summary: unchanged ? "stub: nothing was removed" : "stub: edits removed context",
    dimension_scores: {
      goal_retention: score(5),
      evidence_retention: score(unchanged ? 5 : 1),
      continuation_readiness: score(unchanged ? 5 : 2),
      compression_safety: score(unchanged ? 5 : 2),
    },
    failure_culprit: null,
  });
}

/** Planner prompts (the Self-GC contract) get a plan folding the first tool result named; the rest are judge calls. */
const isPlannerCall = (request: RecordedRequest) => promptOf(request).system.includes("DECIDE IN THIS ORDER");
function stubAnswer(request: RecordedRequest): string {
  if (!isPlannerCall(request)) return stubVerdict(request);
  const id = /<turn id="function:([a-z_]+:\d+)"/.exec(promptOf(request).messages.at(-1)?.content ?? "")?.[1];
  return `<above_conversation_summary>Stub planner.</above_conversation_summary>\n<gc_plan>${id ? `<fold kind="function" reason="stable_artifact">${id}</fold>` : ""}</gc_plan>`;
}

let stub: LlmStub;
before(async () => {
  stub = await startLlmStub(stubAnswer);
});
after(() => stub.close());

for (const engine of ENGINES) {
  describe(`evaluation runs with the LLM judge on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
      for (const path of TRACES) assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, path) })).status, "imported", path);
    });
    after(async () => {
      await t.close();
    });

    test("the run completes, verdicts are stored, a malformed answer becomes one failed unit, aggregates agree", async () => {
      const created = await createRun(t.db, { settings: SETTINGS });
      assert.ok(created.ok, JSON.stringify(created));
      const llm = createLlmClient({
        provider: "openai",
        baseUrl: `${stub.baseUrl}/v1`,
        model: "stub-judge",
        timeoutMs: 5_000,
        maxRetries: 0,
        reasoning: "auto",
        priceInput: 2,
        priceOutput: 8,
      });
      const first = stub.requests.length;
      stub.script({ text: "Looks fine to me." }, { text: "Still fine, I promise." });
      // One unit at a time: the two scripted prose answers must reach the same unit (its answer and its repair).
      assert.equal(await runEvaluation(t.db, created.runId, { workerId: "llm-worker", llm, concurrency: 1 }), "done");
      const sent = stub.requests.slice(first);
      assert.equal(sent.length, created.total + 1, "one request per unit, plus the failed unit's repair round");
      assert.ok(sent.every((r) => (r.body as { messages: { content: string }[] }).messages[0]!.content === JUDGE_CONTRACT));

      const run = await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } });
      assert.deepEqual([run.status, run.done, run.total, run.failed], ["done", created.total, created.total, 1]);
      assert.deepEqual([run.judgeModel, run.plannerModel], ["openai:stub-judge", null], "the run records which model judged; no policy planned with the LLM");
      // Every judge call's reported usage (the stub: 11 in, 7 out) at the endpoint's prices ($2 / $8 per MTok).
      const usage = JSON.parse(run.llmUsage!) as Record<
        string,
        { calls: number; inputTokens: number; outputTokens: number; costUsd: number; unpricedCalls: number }
      >;
      assert.deepEqual(Object.keys(usage), ["judge"]);
      assert.deepEqual(
        [usage.judge!.calls, usage.judge!.inputTokens, usage.judge!.outputTokens, usage.judge!.unpricedCalls],
        [sent.length, 11 * sent.length, 7 * sent.length, 0],
      );
      assert.ok(Math.abs(usage.judge!.costUsd - sent.length * 78e-6) < 1e-12, String(usage.judge!.costUsd));
      const failed = await t.db.evalResult.findMany({ where: { runId: created.runId, NOT: { error: null } } });
      assert.equal(failed.length, 1);
      assert.match(failed[0]!.error!, /^the LLM judge's answer did not parse: /);

      const aggregates = (await getRunAggregates(t.db, created.runId))!;
      assert.deepEqual(
        aggregates.policies.map((p) => p.id),
        POLICIES,
      );
      assert.equal(
        aggregates.policies.reduce((n, p) => n + p.n + p.failedUnits, 0),
        created.total,
      );
      assert.equal(
        aggregates.policies.reduce((n, p) => n + p.failedUnits, 0),
        1,
      );
      for (const policy of aggregates.policies) {
        const cuts = await listRunCuts(t.db, created.runId, policy.id);
        const judged = cuts.filter((c) => c.error === null);
        assert.equal(policy.n, judged.length);
        // The stub's rule, checked on every stored unit: no edits ⇔ no impact.
        for (const cut of judged) assert.equal(cut.noImpact, cut.tokensAfter === cut.prefixTokens, `${cut.unitKey}: ${cut.prunePct}%`);
        assert.equal(policy.noImpact, judged.filter((c) => c.noImpact).length);
        assert.equal(policy.failures.uncategorized ?? 0, policy.n - policy.noImpact, "an LLM verdict counts under uncategorized");
        const interval = wilson(policy.noImpact, policy.n);
        assert.deepEqual(policy.ci95, [Math.round(10_000 * interval.low) / 100, Math.round(10_000 * interval.high) / 100]);
      }
      const [none, prune] = aggregates.policies;
      assert.equal(none!.noImpactPct, 100, "the control never edits");
      assert.ok(prune!.noImpact < prune!.n, "tool-prune edits some cut and the stub fails it");

      const rows = await t.db.evalResult.findMany({ where: { runId: created.runId, error: null } });
      for (const row of rows) {
        const verdict = JudgeVerdictSchema.parse(JSON.parse(row.verdict));
        assert.equal(verdict.summary, row.noImpact ? "stub: nothing was removed" : "stub: edits removed context");
        assert.equal(verdict.evidence, undefined, "no dependency evidence behind an LLM verdict");
      }
      const evidence = await getCutEvidence(t.db, created.runId, rows[0]!.unitKey);
      assert.equal(evidence?.judge, "llm");
    });

    test("plan once: with planner=llm each unit's plan is made once and the judge sees that very plan", async () => {
      const settings = { suite: { kind: "all" }, policies: [{ id: "self-gc", params: { planner: "llm" } }], judge: "llm", triggerLevel: 0.9 };
      const created = await createRun(t.db, { settings });
      assert.ok(created.ok, JSON.stringify(created));
      const llm = createLlmClient({
        provider: "openai",
        baseUrl: `${stub.baseUrl}/v1`,
        model: "stub-both",
        timeoutMs: 5_000,
        maxRetries: 0,
        reasoning: "auto",
      });
      const first = stub.requests.length;
      assert.equal(await runEvaluation(t.db, created.runId, { workerId: "plan-once", llm }), "done");
      const sent = stub.requests.slice(first);
      const planner = sent.filter(isPlannerCall);
      const judge = sent.filter((r) => !isPlannerCall(r));
      assert.equal(planner.length, created.total, "one planner call per unit (no re-run to judge)");
      assert.equal(judge.length, created.total, "one judge call per unit");
      // The policy ran once per unit, so each judge packet is built from the one plan whose figures are stored.
      const run = await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } });
      assert.deepEqual([run.plannerModel, run.judgeModel], ["openai:stub-both", "openai:stub-both"], "one model planned and judged: the run page warns");
      assert.equal(run.failed, 0);
    });
  });
}
