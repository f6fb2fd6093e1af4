import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cancelRun } from "../../server/evaluation/cancel-run";
import { createRun } from "../../server/evaluation/create-run";
import { resumeRun } from "../../server/evaluation/resume-run";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { createLlmClient } from "../../server/llm/client";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { startLlmStub, type LlmStub } from "../helpers/llm-stub-server";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/**
 * Cancelling a studio run aborts its model calls in flight (issue 13: cancellation). The stub holds
 * four judge calls without ever answering; a cancel must close their connections and end the run —
 * a runner that waited for the answers would never return, and the test's timeout would fail it.
 * Nothing here measures time: the stub reports the closed connections, the run its status.
 */
const TRACE = "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl";
const SETTINGS = { suite: { kind: "all" }, policies: ["none", "tool-prune", "oldest-turn"].map((id) => ({ id })), judge: "llm", triggerLevel: 0.9 };
const DIMENSION = { score: 5, verdict: "pass" };
const PASS = JSON.stringify({
  valid: true,
  uncertain: false,
  overall_score: 5,
  summary: "stub",
  dimension_scores: { goal_retention: DIMENSION, evidence_retention: DIMENSION, continuation_readiness: DIMENSION, compression_safety: DIMENSION },
  failure_culprit: null,
});
const IN_FLIGHT = 4;

let stub: LlmStub;
before(async () => {
  stub = await startLlmStub(() => PASS);
});
after(() => stub.close());

/** A client whose own timeout never fires during the test: only the cancel can end a held call. */
const client = () =>
  createLlmClient({ provider: "openai", baseUrl: `${stub.baseUrl}/v1`, model: "stub-judge", timeoutMs: 600_000, maxRetries: 0, reasoning: "auto" });

for (const engine of ENGINES) {
  describe(`cancelling an LLM-judged run on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
      assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, TRACE) })).status, "imported");
    });
    after(() => t.close());

    /** Starts a run whose first IN_FLIGHT judge calls are held, and resolves once they all arrived. */
    async function startHeld(flushMs?: number) {
      const created = await createRun(t.db, { settings: SETTINGS });
      assert.ok(created.ok, JSON.stringify(created));
      assert.ok(created.total > IN_FLIGHT, `units: ${created.total}`);
      const first = stub.requests.length;
      const closedBefore = stub.closed.length;
      stub.script(...Array.from({ length: IN_FLIGHT }, () => ({ hold: true })));
      const running = runEvaluation(t.db, created.runId, { workerId: "cancel-test", llm: client(), concurrency: IN_FLIGHT, ...(flushMs ? { flushMs } : {}) });
      await stub.whenRequests(first + IN_FLIGHT);
      return { runId: created.runId, total: created.total, first, closedBefore, running };
    }

    test(
      "cancel (this process): the held calls' connections close, the run ends cancelled with nothing half-stored; resume completes it",
      { timeout: 120_000 },
      async () => {
        const { runId, total, first, closedBefore, running } = await startHeld();
        assert.deepEqual(await cancelRun(t.db, runId), { ok: true, status: "running" });
        await stub.whenClosed(closedBefore + IN_FLIGHT);
        assert.equal(await running, "cancelled");
        assert.equal(stub.requests.length - first, IN_FLIGHT, "no unit started after the cancel");
        assert.equal(await t.db.evalResult.count({ where: { runId } }), 0, "the units cut short are not stored as failed");

        assert.deepEqual(await resumeRun(t.db, runId), { ok: true, status: "queued" });
        assert.equal(await runEvaluation(t.db, runId, { workerId: "cancel-test", llm: client(), concurrency: IN_FLIGHT }), "done");
        const run = await t.db.evalRun.findUniqueOrThrow({ where: { id: runId } });
        assert.deepEqual([run.status, run.done, run.failed], ["done", total, 0]);
      },
    );

    test("cancel from another process (the database flag alone) also aborts the held calls", { timeout: 120_000 }, async () => {
      const { runId, first, closedBefore, running } = await startHeld(20);
      // What cancelRun does in a studio process that does not execute the run: set the flag only.
      await t.db.evalRun.update({ where: { id: runId }, data: { cancelRequested: true } });
      await stub.whenClosed(closedBefore + IN_FLIGHT);
      assert.equal(await running, "cancelled");
      assert.equal(stub.requests.length - first, IN_FLIGHT);
      assert.equal(await t.db.evalResult.count({ where: { runId } }), 0);
    });
  });
}
