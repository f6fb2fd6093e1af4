import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cancelRun } from "../../server/evaluation/cancel-run";
import { createRun } from "../../server/evaluation/create-run";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { startEvalRunner } from "../../server/evaluation/start-eval-runner";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/**
 * The boot entry point (instrumentation.ts → startEvalRunner) resumes, with no page visit, a run
 * the previous process left `running` once its heartbeat is stale, and leaves alone a run whose
 * heartbeat is fresh (another live process may still hold it): the stale-heartbeat rule stays.
 */
const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
];
const SETTINGS = { suite: { kind: "all" }, policies: ["none", "tool-prune", "oldest-turn"].map((id) => ({ id })), judge: "dependency", triggerLevel: 0.9 };

async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the runner");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const engine of ENGINES) {
  describe(`evaluation runner at server boot on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
      for (const path of TRACES) assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, path) })).status, "imported", path);
    });
    after(async () => {
      await t.close();
    });

    /** A run that stopped after its first batch and now looks like its process died `ageMs` ago. */
    async function orphan(ageMs: number): Promise<{ runId: string; total: number; done: number }> {
      const created = await createRun(t.db, { settings: SETTINGS });
      assert.ok(created.ok, JSON.stringify(created));
      await runEvaluation(t.db, created.runId, {
        workerId: "dead-worker",
        llm: null,
        batchSize: 1,
        onBatch: async () => void (await cancelRun(t.db, created.runId)),
      });
      const run = await t.db.evalRun.update({
        where: { id: created.runId },
        data: { status: "running", cancelRequested: false, finishedAt: null, workerId: "dead-worker", heartbeatAt: new Date(Date.now() - ageMs) },
      });
      assert.ok(run.done > 0 && run.done < created.total, `stopped at ${run.done} of ${created.total}`);
      return { runId: created.runId, total: created.total, done: run.done };
    }

    test("a stale run resumes to done; a fresh one stays with its worker", async () => {
      const stale = await orphan(10 * 60_000);
      const fresh = await orphan(5_000);
      const handle = startEvalRunner(t.db, { intervalMs: 100 });
      try {
        await until(async () => (await t.db.evalRun.findUniqueOrThrow({ where: { id: stale.runId } })).status === "done");
        const done = await t.db.evalRun.findUniqueOrThrow({ where: { id: stale.runId } });
        assert.deepEqual([done.done, done.failed, done.workerId], [stale.total, 0, null]);
        const keys = (await t.db.evalResult.findMany({ where: { runId: stale.runId }, select: { unitKey: true } })).map((r) => r.unitKey);
        assert.equal(new Set(keys).size, stale.total, "each unit once: the stored ones were skipped");
        await new Promise((resolve) => setTimeout(resolve, 300)); // a few more ticks of the timer
        const held = await t.db.evalRun.findUniqueOrThrow({ where: { id: fresh.runId } });
        assert.deepEqual([held.status, held.workerId, held.done], ["running", "dead-worker", fresh.done], "a fresh heartbeat is not taken over");
      } finally {
        handle.stop();
      }
    });
  });
}
