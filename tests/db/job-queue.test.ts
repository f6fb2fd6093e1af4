import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { JobContext, JobQueue } from "../../server/jobs/job-queue";
import { createPgBossQueue } from "../../server/jobs/pg-boss-queue";
import { createTableQueue } from "../../server/jobs/sqlite-queue";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { until } from "../helpers/worker-process";

/**
 * The JobQueue contract both implementations keep (server/jobs/job-queue.ts): a queued job reaches
 * its handler with its payload; a singletonKey allows one waiting job; a handler that throws is
 * retried; stop() aborts the signal of a running handler and waits for it to return. The Job-table
 * runner also hands a job whose holder died (lease ran out) to another process.
 */
const CASES = [...ENGINES.map((engine) => ({ engine, kind: "table" as const })), { engine: "postgres" as const, kind: "pg-boss" as const }];

for (const { engine, kind } of CASES) {
  describe(`${kind} job queue on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
    });
    after(async () => {
      await t.close();
    });

    function queueFor(): JobQueue {
      return kind === "pg-boss" ? createPgBossQueue(t.url, { pollingIntervalSeconds: 0.5 }) : createTableQueue(t.db, { pollMs: 100, leaseMs: 600 });
    }

    test("delivers payloads, keeps one waiting job per singleton key, retries a failing handler, and stop aborts a running one", async () => {
      const producer = queueFor();
      const worker = kind === "pg-boss" ? queueFor() : producer;
      await producer.start();
      await worker.start();
      try {
        // Queued before anyone works the queue: both with key "a" collapse into one.
        assert.ok(await producer.enqueue("eval-run", { runId: "a" }, { singletonKey: "a" }));
        assert.equal(await producer.enqueue("eval-run", { runId: "a" }, { singletonKey: "a" }), null);
        assert.ok(await producer.enqueue("eval-run", { runId: "b" }, { singletonKey: "b" }));
        const seen: string[] = [];
        let failures = 0;
        await worker.work("eval-run", async (job: JobContext<object>) => {
          const { runId } = job.data as { runId: string };
          if (runId === "flaky" && failures++ === 0) throw new Error("first attempt fails");
          seen.push(runId);
        });
        await until(async () => seen.length === 2, "both keyed jobs ran", 20_000);
        assert.deepEqual([...seen].sort(), ["a", "b"]);
        await producer.enqueue("eval-run", { runId: "flaky" });
        await until(async () => seen.includes("flaky"), "the failing job was retried", 30_000);
        assert.equal(failures, 2, "one failed attempt, one that succeeded");

        let aborted = false;
        let started = false;
        await worker.work("upload-import", async (job) => {
          started = true;
          await new Promise<void>((resolve) => job.signal.addEventListener("abort", () => resolve(), { once: true }));
          aborted = true;
        });
        await producer.enqueue("upload-import", { importId: "long" });
        await until(async () => started, "the long job started", 20_000);
        await worker.stop({ timeoutMs: 5_000 });
        assert.equal(aborted, true, "stop aborted the running handler's signal and waited for it");
      } finally {
        await worker.stop({ timeoutMs: 1_000 });
        if (producer !== worker) await producer.stop({ timeoutMs: 1_000 });
      }
    });

    if (kind === "table") {
      test("a job whose holder stopped renewing its lease runs again in another process", async () => {
        const dead = createTableQueue(t.db, { pollMs: 100, leaseMs: 300, workerId: "dead" });
        const id = await dead.enqueue("upload-import", { importId: "orphan" });
        // Claim it the way the dead process did, then never renew.
        await t.db.job.update({ where: { id: id! }, data: { state: "active", lockedBy: "dead", lockedUntil: new Date(Date.now() - 1), attempts: 1 } });
        const live = createTableQueue(t.db, { pollMs: 100, leaseMs: 300, workerId: "live" });
        const ran: string[] = [];
        await live.start();
        await live.work("upload-import", async (job) => void ran.push(job.id));
        try {
          await until(async () => ran.length === 1, "the orphaned job ran again", 20_000);
          assert.deepEqual(ran, [id]);
          await until(async () => (await t.db.job.findUniqueOrThrow({ where: { id: id! } })).state === "completed", "completed", 5_000);
          assert.equal((await t.db.job.findUniqueOrThrow({ where: { id: id! } })).attempts, 2);
        } finally {
          await live.stop({ timeoutMs: 1_000 });
        }
      });
    }
  });
}
