import assert from "node:assert/strict";
import { join } from "node:path";
import { after, afterEach, before, describe, test } from "node:test";
import type { JobName, JobQueue } from "../../server/jobs/job-queue";
import { createRollout, NO_PLANNER_ENDPOINT } from "../../server/rollout/create-rollout";
import { getRollout } from "../../server/rollout/get-rollout";
import { getRolloutCall } from "../../server/rollout/get-rollout-call";
import { runRollout } from "../../server/rollout/run-rollout";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { tracefoldCommandAsync } from "../helpers/eval-cli";
import { stubPlanFoldingAll } from "../helpers/llm-stub-answers";
import { startLlmStub, stubPlannerEnv } from "../helpers/llm-stub-server";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/*
 * The studio's rollout with Self-GC's LLM planner (the form's "Self-GC planner: LLM", `--planner llm`
 * on the CLI): refused without a planner endpoint, and against the local stub endpoint the stored
 * run's figures — planner rounds, tokens and cost included — are what `tracefold rollout --planner
 * llm --json` prints for the same file and flags.
 */
/** A SWE-agent run whose tool results are large enough that the stub's plans commit (one does). */
const FILE = join(
  TRACES_DIR,
  "swe_agent_traj/SWE-agent__SWE-agent/tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj",
);
const POLICIES = ["self-gc", "tool-prune"];
const SETTINGS = { policies: POLICIES, trigger: "80%", cacheTtl: "1h", prices: "", planner: "llm" };

/** The stub as the planner endpoint (its plans fold every function turn the planner is shown). */
const stubEnv = stubPlannerEnv;

/** The process environment without any TRACEFOLD_LLM_* variable, plus `extra`; returns how to put it back. */
function setLlmEnv(extra: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("TRACEFOLD_LLM_")));
  for (const key of Object.keys(saved)) delete process.env[key];
  Object.assign(process.env, extra);
  return () => {
    for (const key of Object.keys(process.env)) if (key.startsWith("TRACEFOLD_LLM_")) delete process.env[key];
    Object.assign(process.env, saved);
  };
}

/** `tracefold rollout` in a child process (asynchronous, so the stub in this process answers it), without the developer's LLM settings. */
function cliRollout(extra: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return tracefoldCommandAsync(
    "rollout",
    [FILE, "--policies", POLICIES.join(","), "--trigger", "80%", "--cache-ttl", "1h", "--planner", "llm", "--json"],
    extra,
  );
}

const queue: JobQueue = {
  kind: "sqlite",
  start: async () => undefined,
  stop: async () => undefined,
  work: async () => undefined,
  enqueue: async (_name: JobName) => "job",
};

for (const engine of ENGINES) {
  describe(`rollout runs with the LLM planner on ${engine}`, () => {
    let t: TestDb;
    let restoreEnv: (() => void) | undefined;
    before(async () => {
      t = await createTestDb(engine);
      const userId = (await t.db.user.create({ data: { email: "rita@tracefold.test", name: "Rita", passwordHash: "x", role: "reviewer" } })).id;
      assert.equal((await importTraceFile({ db: t.db, store: t.store, path: FILE, userId })).status, "imported");
    });
    afterEach(() => {
      restoreEnv?.();
      restoreEnv = undefined;
    });
    after(async () => {
      await t.close();
    });

    test("without a planner endpoint the LLM planner is refused, saying what to set; it needs self-gc; an unknown planner is refused", async () => {
      restoreEnv = setLlmEnv({});
      const refused = await createRollout(t.db, queue, { settings: SETTINGS, selection: { kind: "all" } });
      assert.deepEqual(refused, {
        ok: false,
        code: "llm_unavailable",
        message: NO_PLANNER_ENDPOINT,
        fieldErrors: { planner: ["no LLM endpoint is configured"] },
      });
      const noSelfGc = await createRollout(t.db, queue, { settings: { ...SETTINGS, policies: ["tool-prune"] }, selection: { kind: "all" } });
      assert.deepEqual(noSelfGc.ok ? "created" : noSelfGc.fieldErrors, { planner: ["the LLM planner is Self-GC's planner: add self-gc to the policies"] });
      const unknown = await createRollout(t.db, queue, { settings: { ...SETTINGS, planner: "gpt" }, selection: { kind: "all" } });
      assert.deepEqual(unknown.ok ? "created" : unknown.fieldErrors, { planner: ["the planner is rule-based or llm"] });
      assert.equal(await t.db.rolloutRun.count(), 0, "nothing stored");
    });

    test("against the stub endpoint the stored run has the CLI's figures, planner rounds, tokens and cost included", async () => {
      const stub = await startLlmStub(stubPlanFoldingAll);
      try {
        const cli = await cliRollout(stubEnv(stub));
        assert.equal(cli.code, 0, cli.stderr);
        const cliCalls = stub.requests.length;
        const printed = JSON.parse(cli.stdout) as { policies: { id: string; planner: { rounds: number } }[] };
        assert.ok(printed.policies[0]!.planner.rounds > 0, "the CLI's self-gc asked the planner");

        restoreEnv = setLlmEnv(stubEnv(stub));
        const created = await createRollout(t.db, queue, { settings: SETTINGS, selection: { kind: "all" } });
        assert.ok(created.ok, JSON.stringify(created));
        if (!created.ok) return;
        assert.equal(await runRollout(t.db, created.runId, { workerId: "w" }), "done");
        const view = (await getRollout(t.db, created.runId))!;
        assert.equal(view.run.settings?.planner, "llm");
        assert.equal(stub.requests.length, 2 * cliCalls, "the studio asked the planner as often as the CLI");
        assert.deepEqual(
          view.report!.policies.map(({ lostPer100Interval: _i, ...p }) => p),
          printed.policies,
        );
        const planner = view.report!.policies[0]!.planner;
        assert.deepEqual(planner, {
          rounds: cliCalls,
          inputTokens: 11 * cliCalls,
          outputTokens: 7 * cliCalls,
          cachedInputTokens: 0,
          cost: Math.round(cliCalls * 78) / 1e6,
          unpricedRounds: 0,
        });
        // The view at a self-gc call after its plans committed walks again on the planner's recorded
        // answers: the prompt the run measured, and no model is asked.
        const session = view.sessions[0]!;
        const series = session.policies.find((p) => p.id === "self-gc")!.series;
        const last = series.length - 1;
        assert.ok(
          series.some((c) => c[2] === 1),
          "self-gc committed a plan of the stub's",
        );
        const selfGc = await getRolloutCall(t.db, { runId: created.runId, sessionId: session.sessionId, policy: "self-gc", call: last });
        assert.ok(selfGc.ok, JSON.stringify(selfGc));
        assert.equal(selfGc.ok && selfGc.data.matchesRun, true);
        assert.ok(selfGc.ok && selfGc.data.round > 0, "the call is after a commit");
        assert.deepEqual(selfGc.ok && [selfGc.data.tokens.without, selfGc.data.tokens.with], [series[last]![0], series[last]![1]]);
        const prune = await getRolloutCall(t.db, { runId: created.runId, sessionId: session.sessionId, policy: "tool-prune", call: 0 });
        assert.equal(prune.ok && prune.data.matchesRun, true);
        assert.equal(stub.requests.length, 2 * cliCalls, "showing a call asked no model");

        // A recording that runs out before the walk does (the session or engine changed) is said so;
        // a run stored without recordings is not walked again with the model.
        const row = await t.db.rolloutRunSession.findUniqueOrThrow({ where: { runId_sessionId: { runId: created.runId, sessionId: session.sessionId } } });
        const recorded = JSON.parse(row.llmReplies!) as Record<string, { client: string; replies: unknown[] }>;
        assert.deepEqual(Object.keys(recorded), ["self-gc"], "only self-gc asked the model");
        assert.equal(recorded["self-gc"]!.replies.length, cliCalls);
        const short = { "self-gc": { ...recorded["self-gc"]!, replies: recorded["self-gc"]!.replies.slice(0, 1) } };
        await t.db.rolloutRunSession.update({ where: { id: row.id }, data: { llmReplies: JSON.stringify(short) } });
        const diverged = await getRolloutCall(t.db, { runId: created.runId, sessionId: session.sessionId, policy: "self-gc", call: last });
        assert.deepEqual(diverged.ok ? "shown" : [diverged.code, diverged.message.includes("the session or the engine changed since the run")], [
          "not_replayable",
          true,
        ]);
        await t.db.rolloutRunSession.update({ where: { id: row.id }, data: { llmReplies: JSON.stringify({ "self-gc": { client: 1 } }) } });
        const unreadable = await getRolloutCall(t.db, { runId: created.runId, sessionId: session.sessionId, policy: "self-gc", call: last });
        assert.deepEqual(unreadable.ok ? "shown" : [unreadable.code, unreadable.message.includes("unreadable (self-gc.client:")], ["not_replayable", true]);
        await t.db.rolloutRunSession.update({ where: { id: row.id }, data: { llmReplies: null } });
        const older = await getRolloutCall(t.db, { runId: created.runId, sessionId: session.sessionId, policy: "self-gc", call: 0 });
        assert.equal(older.ok ? "shown" : older.code, "not_replayable");
        assert.equal(stub.requests.length, 2 * cliCalls, "none of these asked a model");
      } finally {
        await stub.close();
      }
    });
  });
}
