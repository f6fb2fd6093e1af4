import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { aggregatePolicies, toRecord } from "../../lib/evaluation/aggregate/aggregate";
import { evaluateSuite } from "../../lib/evaluation/runner/evaluate-suite";
import { findPolicy } from "../../lib/compaction/policies/registry";
import { cancelRun } from "../../server/evaluation/cancel-run";
import { compactionFrequency } from "../../server/evaluation/compaction-frequency";
import { createRun } from "../../server/evaluation/create-run";
import { compareRunPolicies, getRunAggregates } from "../../server/evaluation/get-run-aggregates";
import { getCutEvidence, listRunCuts } from "../../server/evaluation/list-run-cuts";
import { recoverOrphanedRuns } from "../../server/evaluation/recover-runs";
import { resumeRun } from "../../server/evaluation/resume-run";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { loadAnalyzedSession } from "../../server/trace/session/load-analyzed-session";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
];
const POLICIES = ["none", "tool-prune", "oldest-turn", "self-gc"];
const SETTINGS = { suite: { kind: "all" }, policies: POLICIES.map((id) => ({ id })), judge: "dependency", triggerLevel: 0.9 };
const NO_LLM = { workerId: "test-worker", llm: null } as const;

for (const engine of ENGINES) {
  describe(`persisted evaluation runs on ${engine}`, () => {
    let t: TestDb;
    let sessionIds: string[];
    let expected: ReturnType<typeof aggregatePolicies>;
    before(async () => {
      t = await createTestDb(engine);
      sessionIds = [];
      for (const path of TRACES) {
        const outcome = await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, path) });
        assert.equal(outcome.status, "imported", path);
        if (outcome.status === "imported") sessionIds.push(...outcome.sessions.map((s) => s.id));
      }
      // The reference: lib/evaluation's evaluateSuite straight over the sessions as loaded (trace ids, no database ids).
      const sessions = await Promise.all(sessionIds.map(async (id) => (await loadAnalyzedSession(t.db, id))!));
      const records = [];
      for await (const item of evaluateSuite({
        sessions,
        policies: POLICIES.map((id) => ({ policy: findPolicy(id)! })),
        tokenizerFor: (s) => sessions.find((x) => x.session === s)!.tokenizer,
      })) {
        if (item.kind === "result") records.push(toRecord(item.evaluation));
      }
      expected = aggregatePolicies(records, POLICIES);
      assert.ok(expected[0]!.n > 0, "the traces have replay cuts");
    });
    after(async () => {
      await t.close();
    });

    async function unitKeys(runId: string): Promise<string[]> {
      return (await t.db.evalResult.findMany({ where: { runId }, select: { unitKey: true } })).map((r) => r.unitKey);
    }

    test("a run executes to done and its aggregates equal aggregatePolicies over a direct evaluateSuite", async () => {
      const created = await createRun(t.db, { settings: SETTINGS });
      assert.ok(created.ok, JSON.stringify(created));
      assert.equal(created.sessions, sessionIds.length);
      assert.equal(created.total, expected[0]!.n * POLICIES.length);
      assert.equal(await runEvaluation(t.db, created.runId, NO_LLM), "done");
      const run = await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } });
      assert.deepEqual([run.status, run.done, run.total, run.failed], ["done", created.total, created.total, 0]);
      const aggregates = await getRunAggregates(t.db, created.runId);
      assert.deepEqual(
        aggregates!.policies.map(({ failedUnits, ...p }) => p),
        expected,
      );
      assert.equal(await runEvaluation(t.db, created.runId, NO_LLM), null, "a finished run is not run again");

      const cuts = await listRunCuts(t.db, created.runId, "tool-prune");
      assert.equal(cuts.length, expected[1]!.n);
      assert.equal(cuts.filter((c) => c.noImpact).length, expected[1]!.noImpact);
      const evidence = await getCutEvidence(t.db, created.runId, cuts[0]!.unitKey);
      assert.equal(evidence?.judge, "dependency");
      assert.equal(evidence?.counts?.lost, cuts[0]!.missing);
      const pair = await compareRunPolicies(t.db, created.runId, "none", "tool-prune");
      assert.equal(pair!.pairs, expected[0]!.n);
      const frequency = await compactionFrequency(t.db, created.runId);
      assert.deepEqual(
        frequency!.map((f) => f.cuts),
        expected.map((p) => p.n),
      );
      assert.equal(frequency!.find((f) => f.policy === "none")!.fired, 0, "the control never compacts");
    });

    test("cancel mid-run keeps what was stored; resume finishes with the same aggregates and no duplicate unit", async () => {
      const created = await createRun(t.db, { settings: SETTINGS, name: "cancel me" });
      assert.ok(created.ok);
      let batches = 0;
      const status = await runEvaluation(t.db, created.runId, {
        ...NO_LLM,
        batchSize: 3,
        onBatch: async () => {
          if (++batches === 1) assert.deepEqual(await cancelRun(t.db, created.runId), { ok: true, status: "running" });
        },
      });
      assert.equal(status, "cancelled");
      const stopped = await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } });
      assert.ok(stopped.done > 0 && stopped.done < created.total, `stopped at ${stopped.done} of ${created.total}`);
      assert.equal((await unitKeys(created.runId)).length, stopped.done);
      assert.equal((await cancelRun(t.db, created.runId)).ok, false, "a cancelled run cannot be cancelled again");

      assert.deepEqual(await resumeRun(t.db, created.runId), { ok: true, status: "queued" });
      assert.equal(await runEvaluation(t.db, created.runId, NO_LLM), "done");
      const keys = await unitKeys(created.runId);
      assert.equal(keys.length, created.total);
      assert.equal(new Set(keys).size, keys.length);
      assert.deepEqual(
        (await getRunAggregates(t.db, created.runId))!.policies.map(({ failedUnits, ...p }) => p),
        expected,
      );
    });

    test("a run left running by a dead process is recovered and resumed from its stored results", async () => {
      const created = await createRun(t.db, { settings: SETTINGS });
      assert.ok(created.ok);
      let batches = 0;
      // Run two batches, then make the run look like its process died: still running, stale heartbeat.
      await runEvaluation(t.db, created.runId, {
        ...NO_LLM,
        workerId: "dead-worker",
        batchSize: 4,
        onBatch: async () => {
          if (++batches === 2) await cancelRun(t.db, created.runId);
        },
      });
      const partial = await t.db.evalRun.update({
        where: { id: created.runId },
        data: { status: "running", cancelRequested: false, finishedAt: null, workerId: "dead-worker", heartbeatAt: new Date(Date.now() - 60_000) },
      });
      assert.ok(partial.done > 0 && partial.done < created.total);
      assert.deepEqual(await recoverOrphanedRuns(t.db, { workerId: "live-worker", staleMs: 120_000 }), [], "a fresh heartbeat is not orphaned");
      assert.deepEqual(await recoverOrphanedRuns(t.db, { workerId: "live-worker", staleMs: 30_000 }), [created.runId]);
      assert.equal(await runEvaluation(t.db, created.runId, { ...NO_LLM, workerId: "live-worker" }), "done");
      const keys = await unitKeys(created.runId);
      assert.equal(keys.length, created.total);
      assert.equal(new Set(keys).size, keys.length);
      assert.deepEqual(
        (await getRunAggregates(t.db, created.runId))!.policies.map(({ failedUnits, ...p }) => p),
        expected,
      );
    });

    test("settings are validated with exact messages and an empty suite is refused", async () => {
      const bad = await createRun(t.db, { settings: { ...SETTINGS, policies: [{ id: "nope" }], judge: "oracle", triggerLevel: 1.5 } });
      assert.equal(bad.ok, false);
      assert.deepEqual(!bad.ok && bad.fieldErrors, {
        "policies.0.id": ["unknown policy nope"],
        judge: ["judge must be dependency or llm"],
        triggerLevel: ["the trigger level is a percent of the window above 0 and at most 100, got 150%"],
      });
      const empty = await createRun(t.db, { settings: { ...SETTINGS, suite: { kind: "filter", filter: { formats: ["aider_chat_md"] } } } });
      assert.deepEqual(empty, { ok: false, code: "empty_suite", message: "the suite selects no sessions" });
    });
  });
}
