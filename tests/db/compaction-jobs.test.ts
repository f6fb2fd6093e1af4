import assert from "node:assert/strict";
import { join } from "node:path";
import { rename } from "node:fs/promises";
import { after, before, describe, mock, test } from "node:test";
import type { JobQueue } from "../../server/jobs/job-queue";
import { createPgBossQueue } from "../../server/jobs/pg-boss-queue";
import { createTableQueue } from "../../server/jobs/sqlite-queue";
import { createLlmClient } from "../../server/llm/client";
import type { LlmConfig } from "../../server/llm/config";
import { compactSession } from "../../server/compaction/compact-session";
import type { CompactData } from "../../server/compaction/compaction-api";
import { getCompactionJobResponse } from "../../server/compaction/compaction-jobs/get-compaction-job";
import { requestCompaction } from "../../server/compaction/compaction-jobs/request-compaction";
import {
  COMPACTION_JOB_RETENTION_MS,
  compactionJobHandler,
  MAX_COMPACTION_ATTEMPTS,
  reconcileCompactionJobs,
  runCompactionJob,
} from "../../server/compaction/compaction-jobs/run-compaction-job";
import type { BlobStore } from "../../server/storage/blob-store";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { startLlmStub, type LlmStub } from "../helpers/llm-stub-server";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";
import { killWorkers, startWorker, until, type WorkerProcess } from "../helpers/worker-process";

/**
 * Studio compactions that call the LLM (self-gc planner=llm) run as durable jobs (issue #7): the
 * request queues a CompactionJob, a worker runs it against the model, and the stored result is the
 * body the synchronous route would have answered. A worker killed mid-call (SIGKILL) leaves the
 * job to the next worker once its heartbeat is stale; a failing endpoint ends it failed with a
 * located message; rule-based runs never become jobs.
 */
const TRACE = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"); // cut 211: before the response at line 1084 (293 messages, 408 records)
const REQUEST = { policy: "self-gc", cut: 211, params: { planner: "llm" } };
const LLM_ENV = ["TRACEFOLD_LLM_PROVIDER", "TRACEFOLD_LLM_BASE_URL", "TRACEFOLD_LLM_API_KEY", "TRACEFOLD_LLM_MODEL", "TRACEFOLD_LLM_MAX_RETRIES"] as const;

for (const engine of ENGINES) {
  describe(`compaction jobs on ${engine}`, () => {
    let t: TestDb;
    let stub: LlmStub;
    let queue: JobQueue;
    let sessionId: string;
    let synchronous: CompactData;
    const savedEnv = new Map<string, string | undefined>();
    const workers: WorkerProcess[] = [];
    const newQueue = (): JobQueue => (engine === "postgres" ? createPgBossQueue(t.url, { supervise: false }) : createTableQueue(t.db, { pollMs: 100 }));
    const llmEnv = (): Record<(typeof LLM_ENV)[number], string> => ({
      TRACEFOLD_LLM_PROVIDER: "openai",
      TRACEFOLD_LLM_BASE_URL: `${stub.baseUrl}/v1`,
      TRACEFOLD_LLM_API_KEY: "sk-stub",
      TRACEFOLD_LLM_MODEL: "stub-planner",
      TRACEFOLD_LLM_MAX_RETRIES: "1",
    });
    const llm = (deps = {}) => {
      const config: LlmConfig = {
        provider: "openai",
        baseUrl: `${stub.baseUrl}/v1`,
        apiKey: "sk-stub",
        model: "stub-planner",
        timeoutMs: 5_000,
        maxRetries: 1,
        reasoning: "auto",
      };
      return createLlmClient(config, deps);
    };
    const row = (id: string) => t.db.compactionJob.findUniqueOrThrow({ where: { id } });
    const queueJob = async () => {
      const outcome = await requestCompaction(t.db, t.store, () => queue, { sessionId, request: REQUEST });
      assert.equal(outcome.kind, "queued", JSON.stringify(outcome).slice(0, 300));
      return (outcome as { jobId: string }).jobId;
    };

    before(async () => {
      t = await createTestDb(engine);
      const imported = await importTraceFile({ db: t.db, store: t.store, path: TRACE });
      assert.equal(imported.status, "imported");
      sessionId = imported.status === "imported" ? imported.sessions[0]!.id : "";
      // The stub plays a deterministic planner: it folds the first Read result the prompt names.
      stub = await startLlmStub((request) => {
        const id = /function:(read:\d+)/.exec(JSON.stringify(request.body))?.[1] ?? "read:1";
        return `<above_conversation_summary>Coding session; keep paths.</above_conversation_summary>\n<gc_plan>\n  <fold kind="function" reason="stable_artifact">${id}</fold>\n</gc_plan>`;
      });
      for (const [name, value] of Object.entries(llmEnv())) {
        savedEnv.set(name, process.env[name]);
        process.env[name] = value;
      }
      queue = newQueue();
      await queue.start();
      const sync = await compactSession(t.db, t.store, { sessionId, ...REQUEST, llm: llm() });
      assert.ok(sync.ok, JSON.stringify(sync));
      synchronous = sync.data;
    });
    after(async () => {
      await killWorkers(workers);
      for (const [name, value] of savedEnv)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      await queue.stop({ timeoutMs: 1_000 });
      await stub.close();
      await t.close();
    });

    test("planner=llm is queued; a worker runs it and stores exactly what the synchronous path returns", async () => {
      const jobId = await queueJob();
      assert.deepEqual(await getCompactionJobResponse(t.db, sessionId, jobId), { ok: true, jobId, status: "queued", attempts: 0 });
      assert.equal(await getCompactionJobResponse(t.db, "another-session", jobId), null, "a job is only visible under its own session");
      const requestsBefore = stub.requests.length;
      const worker = newQueue();
      await worker.work("session-compact", compactionJobHandler(t.db, t.store, { workerId: "in-process", llm: llm() }));
      try {
        await until(async () => (await row(jobId)).status === "done", "the worker finished the compaction", 30_000);
      } finally {
        await worker.stop({ timeoutMs: 1_000 });
      }
      const done = await row(jobId);
      assert.equal(done.attempts, 1);
      assert.equal(done.workerId, null);
      assert.ok(done.finishedAt);
      assert.equal(stub.requests.length, requestsBefore + 1, "one planner call");
      assert.deepEqual(JSON.parse(done.result!), synchronous);
      assert.deepEqual(await getCompactionJobResponse(t.db, sessionId, jobId), { ok: true, jobId, status: "done", data: synchronous });
      assert.equal(await runCompactionJob(t.db, t.store, jobId, { workerId: "late" }), null, "a second delivery of a done job does nothing");
    });

    test("rule-based runs, and planner=llm without an endpoint, answer synchronously and queue nothing", async () => {
      const jobsBefore = await t.db.compactionJob.count();
      const requestsBefore = stub.requests.length;
      const ruleBased = await requestCompaction(t.db, t.store, () => assert.fail("no queue for a rule-based run"), {
        sessionId,
        request: { policy: "self-gc", cut: 211 },
      });
      assert.equal(ruleBased.kind, "done");
      const direct = await compactSession(t.db, t.store, { sessionId, policy: "self-gc", cut: 211 });
      assert.ok(direct.ok);
      assert.deepEqual((ruleBased as { data: CompactData }).data, direct.data);
      const provider = process.env.TRACEFOLD_LLM_PROVIDER;
      delete process.env.TRACEFOLD_LLM_PROVIDER;
      try {
        const unavailable = await requestCompaction(t.db, t.store, () => assert.fail("no queue without an endpoint"), { sessionId, request: REQUEST });
        assert.equal(unavailable.kind, "refused");
        assert.equal((unavailable as { code: string }).code, "planner_unavailable");
        assert.match((unavailable as { message: string }).message, /TRACEFOLD_LLM_PROVIDER/);
      } finally {
        process.env.TRACEFOLD_LLM_PROVIDER = provider;
      }
      assert.deepEqual(await requestCompaction(t.db, t.store, () => queue, { sessionId: "no-such-session", request: REQUEST }), {
        kind: "refused",
        code: "not_found",
        message: "no such session",
      });
      const badCut = await requestCompaction(t.db, t.store, () => queue, { sessionId, request: { ...REQUEST, cut: 1_000_000 } });
      assert.equal(badCut.kind, "refused");
      assert.match((badCut as { message: string }).message, /^cut must be between 1 and \d+$/);
      const badParam = await requestCompaction(t.db, t.store, () => queue, { sessionId, request: { policy: "self-gc", params: { planner: 3 } } });
      assert.equal((badParam as { code: string }).code, "invalid_params");
      assert.equal(await t.db.compactionJob.count(), jobsBefore);
      assert.equal(stub.requests.length, requestsBefore);
    });

    test("a running job whose heartbeat went stale is taken back and finished; one interrupted 3 times fails", async () => {
      const jobId = await queueJob();
      const stale = new Date(Date.now() - 60_000);
      await t.db.compactionJob.update({ where: { id: jobId }, data: { status: "running", workerId: "dead-worker", heartbeatAt: stale, attempts: 1 } });
      const fresh = await queueJob();
      await t.db.compactionJob.update({ where: { id: fresh }, data: { status: "running", workerId: "live-worker", heartbeatAt: new Date(), attempts: 1 } });
      assert.deepEqual(
        await reconcileCompactionJobs(t.db, queue, { workerId: "sweeper", staleMs: 10_000 }),
        [jobId],
        "only the silent worker's job is taken back",
      );
      assert.equal((await row(fresh)).status, "running");
      assert.equal((await row(jobId)).status, "queued");
      assert.equal(await runCompactionJob(t.db, t.store, jobId, { workerId: "second", llm: llm() }), "done");
      const done = await row(jobId);
      assert.equal(done.attempts, 2);
      assert.deepEqual(JSON.parse(done.result!), synchronous);

      await t.db.compactionJob.update({ where: { id: fresh }, data: { status: "queued", workerId: null, attempts: MAX_COMPACTION_ATTEMPTS } });
      assert.equal(await runCompactionJob(t.db, t.store, fresh, { workerId: "third", llm: llm() }), "failed");
      const body = await getCompactionJobResponse(t.db, sessionId, fresh);
      assert.equal(body?.ok, false);
      assert.match((body as { message: string }).message, /interrupted 3 times .*run it again/);

      // Finished jobs outlive their retention only until the next sweep; queued ones are never removed.
      const later = new Date(Date.now() + COMPACTION_JOB_RETENTION_MS + 60_000);
      const waiting = await queueJob();
      await reconcileCompactionJobs(t.db, queue, { workerId: "sweeper", now: later });
      assert.equal(await t.db.compactionJob.count({ where: { id: { in: [jobId, fresh] } } }), 0);
      assert.equal((await row(waiting)).status, "queued");
      await t.db.compactionJob.delete({ where: { id: waiting } });
    });

    test("an endpoint that keeps failing marks the job failed with the located message", async () => {
      const jobId = await queueJob();
      stub.script({ status: 500, body: { error: "upstream exploded" } }, { status: 500, body: { error: "upstream exploded" } });
      assert.equal(await runCompactionJob(t.db, t.store, jobId, { workerId: "w", llm: llm({ sleep: async () => undefined }) }), "failed");
      const body = await getCompactionJobResponse(t.db, sessionId, jobId);
      assert.equal(body?.status, "failed");
      assert.equal(body?.ok, false);
      const { code, message } = body as { code: string; message: string };
      assert.equal(code, "internal");
      assert.match(
        message,
        /^the policy run failed \(self-gc at cut 211\): the LLM call failed after 2 attempts: openai answered HTTP 500; it answered: .*upstream exploded/,
      );
      assert.doesNotMatch(message, /sk-stub/);
    });

    test("a failure inside the server (a store error naming a path) is stored as internal error (ref …), the path only in the log", async () => {
      // A rule-based self-gc (it folds, so it stores sidecars), run by the job runner as a worker would.
      const { id: jobId } = await t.db.compactionJob.create({ data: { sessionId, policy: "self-gc", cut: 211 }, select: { id: true } });
      await t.db.sidecar.deleteMany({ where: { sessionId } }); // so the run stores its sidecars again
      const path = join(t.dataDir, "blobs", "sidecars", "70", "gone.tmp");
      const broken: BlobStore = { ...t.store, putBytes: async () => rename(path, `${path}.moved`).then(() => assert.fail("the rename must fail")) };
      const log = mock.method(console, "error", () => undefined);
      try {
        assert.equal(await runCompactionJob(t.db, broken, jobId, { workerId: "w", llm: llm() }), "failed");
      } finally {
        log.mock.restore();
      }
      const { code, message } = (await getCompactionJobResponse(t.db, sessionId, jobId)) as { code: string; message: string };
      assert.equal(code, "internal");
      const ref = /^the policy run failed \(self-gc at cut 211\): internal error \(ref ([0-9a-f]{8})\)$/.exec(message)?.[1];
      assert.ok(ref, message);
      const logged = log.mock.calls.find((call) => String(call.arguments[0]).includes(`[ref ${ref}]`));
      assert.ok(logged, "the full error is logged under the ref the user sees");
      assert.match(String((logged.arguments[1] as Error).message), /ENOENT: no such file or directory, rename '.*gone\.tmp'/);
    });

    /** A queued job and a worker process inside its (slow) planner call. */
    async function workerInPlannerCall(): Promise<{ jobId: string; first: WorkerProcess }> {
      const jobId = await queueJob();
      const before = stub.requests.length;
      stub.script({ delayMs: 8_000 });
      const first = startWorker(t.url, t.dataDir, llmEnv());
      workers.push(first);
      await until(async () => stub.requests.length > before && (await row(jobId)).status === "running", "the first worker called the planner", 45_000, first);
      return { jobId, first };
    }

    test("a worker stopped with SIGTERM during the planner call gives the job back unharmed and exits 0", async () => {
      const { jobId, first } = await workerInPlannerCall();
      first.child.kill("SIGTERM");
      assert.equal(await first.exited, 0, first.output());
      const released = await row(jobId);
      assert.equal(released.status, "queued");
      assert.equal(released.attempts, 0, "a graceful stop does not count as an interrupted attempt");
      const second = startWorker(t.url, t.dataDir, llmEnv());
      workers.push(second);
      await until(async () => (await row(jobId)).status === "done", "the next worker ran the job given back", 45_000, second);
      assert.equal((await row(jobId)).attempts, 1);
      assert.deepEqual(JSON.parse((await row(jobId)).result!), synchronous);
      second.child.kill("SIGTERM");
      assert.equal(await second.exited, 0);
    });

    test("a worker SIGKILLed during the planner call leaves the job to the next worker, which stores the same result", async () => {
      const { jobId, first } = await workerInPlannerCall();
      first.child.kill("SIGKILL");
      assert.equal(await first.exited, "SIGKILL");
      assert.equal((await row(jobId)).status, "running", "the killed worker's job is still marked running");
      const second = startWorker(t.url, t.dataDir, llmEnv());
      workers.push(second);
      await until(async () => (await row(jobId)).status === "done", "the second worker took the job over and finished it", 45_000, second);
      const done = await row(jobId);
      assert.equal(done.attempts, 2);
      assert.deepEqual(JSON.parse(done.result!), synchronous);
      second.child.kill("SIGTERM");
      assert.equal(await second.exited, 0);
    });
  });
}
