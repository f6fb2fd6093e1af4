import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { POLICIES } from "../../lib/compaction/policies/registry";
import { createRun } from "../../server/evaluation/create-run";
import { enqueueEvalRun } from "../../server/evaluation/eval-jobs";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import type { JobQueue } from "../../server/jobs/job-queue";
import { createPgBossQueue } from "../../server/jobs/pg-boss-queue";
import { createTableQueue } from "../../server/jobs/sqlite-queue";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";
import { killWorkers, startWorker, until, type WorkerProcess } from "../helpers/worker-process";

/**
 * Fault tests of `npm run worker` (issue #7, "Prove it"): real worker processes on a throwaway
 * database — pg-boss on PostgreSQL, the Job-table runner on SQLite — killed with SIGKILL in the
 * middle of an evaluation run, or stopped with SIGTERM. The run must end `done` with exactly the
 * results of an uninterrupted run, each unit stored once.
 */
const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
];
const SETTINGS = { suite: { kind: "all" }, policies: POLICIES.map((p) => ({ id: p.id })), judge: "dependency", triggerLevel: 0.9 };

type Row = Record<string, unknown>;

for (const engine of ENGINES) {
  describe(`job workers killed mid-run on ${engine}`, () => {
    let t: TestDb;
    let queue: JobQueue;
    let reference: Map<string, Row>;
    const workers: WorkerProcess[] = [];

    before(async () => {
      t = await createTestDb(engine);
      for (const path of TRACES) assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, path) })).status, "imported", path);
      const created = await createRun(t.db, { settings: SETTINGS, name: "uninterrupted" });
      assert.ok(created.ok, JSON.stringify(created));
      assert.equal(await runEvaluation(t.db, created.runId, { workerId: "reference", llm: null }), "done");
      reference = await resultsOf(created.runId);
      assert.equal(reference.size, created.total);
      queue = engine === "postgres" ? createPgBossQueue(t.url, { supervise: false }) : createTableQueue(t.db);
      await queue.start();
    });
    after(async () => {
      await killWorkers(workers);
      await queue.stop({ timeoutMs: 1_000 });
      await t.close();
    });

    /** The run's result rows by unit key, without ids, run id and timestamps. */
    async function resultsOf(runId: string): Promise<Map<string, Row>> {
      const rows = await t.db.evalResult.findMany({ where: { runId }, orderBy: { unitKey: "asc" } });
      return new Map(rows.map(({ id, runId: _run, createdAt, ...row }) => [row.unitKey, row]));
    }

    async function runOf(runId: string) {
      return t.db.evalRun.findUniqueOrThrow({ where: { id: runId } });
    }

    function start(): WorkerProcess {
      const worker = startWorker(t.url, t.dataDir);
      workers.push(worker);
      return worker;
    }

    async function queuedRun(name: string): Promise<{ runId: string; total: number }> {
      const created = await createRun(t.db, { settings: SETTINGS, name });
      assert.ok(created.ok, JSON.stringify(created));
      await enqueueEvalRun(queue, created.runId);
      return { runId: created.runId, total: created.total };
    }

    async function assertSameAsReference(runId: string, total: number): Promise<void> {
      const run = await runOf(runId);
      assert.deepEqual([run.status, run.done, run.total, run.failed, run.workerId], ["done", total, total, 0, null]);
      const count = await t.db.evalResult.count({ where: { runId } });
      assert.equal(count, total, "each unit stored once");
      assert.deepEqual(await resultsOf(runId), reference, "the same results as the uninterrupted run");
    }

    test("SIGKILL of the worker mid-run: a second worker resumes the run to the uninterrupted results", async () => {
      const { runId, total } = await queuedRun("killed");
      const first = start();
      await until(async () => (await runOf(runId)).done > 0, "the first worker stored a batch", 45_000, first);
      first.child.kill("SIGKILL");
      assert.equal(await first.exited, "SIGKILL");
      const killed = await runOf(runId);
      assert.equal(killed.status, "running", "the dead worker still holds the run");
      assert.ok(killed.done > 0 && killed.done < total, `killed mid-run at ${killed.done} of ${total}`);

      const second = start();
      await until(async () => (await runOf(runId)).status === "done", "the second worker finished the run", 45_000, second);
      await assertSameAsReference(runId, total);
      second.child.kill("SIGTERM");
      assert.equal(await second.exited, 0, second.output());
    });

    test("SIGTERM mid-run: the worker hands the run back and exits 0; the next worker finishes it", async () => {
      const { runId, total } = await queuedRun("stopped");
      const first = start();
      await until(async () => (await runOf(runId)).done > 0, "the first worker stored a batch", 45_000, first);
      first.child.kill("SIGTERM");
      assert.equal(await first.exited, 0, first.output());
      const released = await runOf(runId);
      assert.ok(released.status === "queued" || released.status === "done", `released as ${released.status}`);
      if (released.status === "queued") {
        assert.equal(released.workerId, null);
        assert.ok(released.done < total);
        const second = start();
        await until(async () => (await runOf(runId)).status === "done", "the next worker finished the run", 45_000, second);
        second.child.kill("SIGTERM");
        assert.equal(await second.exited, 0, second.output());
      }
      await assertSameAsReference(runId, total);
    });
  });
}
