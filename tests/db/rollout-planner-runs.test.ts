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
import { stubPlan } from "../helpers/llm-stub-answers";
import { startLlmStub, stubPlannerEnv } from "../helpers/llm-stub-server";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/*
 * The studio's rollout with Self-GC's LLM planner (the form's "Self-GC planner: LLM", `--planner llm`
 * on the CLI): refused without a planner endpoint, and against the local stub endpoint the stored
 * run's figures — planner rounds, tokens and cost included — are what `tracefold rollout --planner
 * llm --json` prints for the same file and flags.
 */
const FILE = join(
  TRACES_DIR,
  "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
);
const POLICIES = ["self-gc", "tool-prune"];
const SETTINGS = { policies: POLICIES, trigger: "80%", cacheTtl: "1h", prices: "", planner: "llm" };

/** The stub as the planner endpoint (its plans fold the first function turn the planner is shown). */
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
      const stub = await startLlmStub(stubPlan);
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
        // The view at a self-gc call is not shown (the planner's plans are not stored); the other policies' are.
        const session = view.sessions[0]!;
        const selfGc = await getRolloutCall(t.db, { runId: created.runId, sessionId: session.sessionId, policy: "self-gc", call: 0 });
        assert.equal(selfGc.ok ? "shown" : selfGc.code, "not_replayable");
        const prune = await getRolloutCall(t.db, { runId: created.runId, sessionId: session.sessionId, policy: "tool-prune", call: 0 });
        assert.equal(prune.ok && prune.data.matchesRun, true);
        assert.equal(stub.requests.length, 2 * cliCalls, "showing a call asked no model");
      } finally {
        await stub.close();
      }
    });
  });
}
