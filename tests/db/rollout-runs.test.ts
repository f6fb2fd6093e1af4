import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { toRolloutContract } from "../../cli/commands/rollout";
import type { RolloutReport } from "../../lib/rollout/rollout-suite";
import type { JobName, JobQueue } from "../../server/jobs/job-queue";
import { createPgBossQueue } from "../../server/jobs/pg-boss-queue";
import { createTableQueue } from "../../server/jobs/sqlite-queue";
import { startJobWorkers } from "../../server/worker/start-job-workers";
import { cancelRollout } from "../../server/rollout/cancel-rollout";
import { createRollout } from "../../server/rollout/create-rollout";
import { getRollout } from "../../server/rollout/get-rollout";
import { getRolloutCall } from "../../server/rollout/get-rollout-call";
import { reconcileRolloutRuns, rolloutRunHandler } from "../../server/rollout/rollout-jobs";
import { resumeRollout } from "../../server/rollout/resume-rollout";
import { runRollout } from "../../server/rollout/run-rollout";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const BIN = resolve(__dirname, "../../cli/bin.mjs");
/** Real traces: a Claude Code file (a main session and five inline subagent threads) and a mini-swe-agent run — seven sessions. */
const FILES = [
  "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_chat_test_1-100/django__django-11099/django__django-11099.traj.json",
].map((p) => join(TRACES_DIR, p));
const POLICIES = ["self-gc", "tool-prune", "oldest-turn", "none"];
const SETTINGS = { policies: POLICIES, trigger: "80%", cacheTtl: "1h", prices: "" };

/** A queue that only records what is enqueued (the tests execute runs themselves). */
function recordingQueue(): JobQueue & { enqueued: { name: JobName; payload: object }[] } {
  const enqueued: { name: JobName; payload: object }[] = [];
  return {
    kind: "sqlite",
    enqueued,
    start: async () => undefined,
    stop: async () => undefined,
    work: async () => undefined,
    enqueue: async (name, payload) => {
      enqueued.push({ name, payload });
      return "job";
    },
  };
}

/** The studio's stored run in the CLI's --json shape (files are named differently: the CLI prints paths, the studio upload names). */
function studioContract(view: NonNullable<Awaited<ReturnType<typeof getRollout>>>) {
  const report: RolloutReport = {
    ...view.report!,
    policies: view.report!.policies.map(({ lostPer100Interval: _i, ...p }) => p),
    sessions: view.sessions.map(({ sessionId: _s, title: _t, ...s }) => s),
  };
  const contract = toRolloutContract(report);
  return { ...contract, sessions: contract.sessions.map(({ file: _f, ...s }) => s) };
}

let cli: ReturnType<typeof toRolloutContract>;
before(() => {
  const run = spawnSync(process.execPath, [BIN, "rollout", ...FILES, "--policies", POLICIES.join(","), "--trigger", "80%", "--cache-ttl", "1h", "--json"], {
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  cli = JSON.parse(run.stdout) as ReturnType<typeof toRolloutContract>;
});

for (const engine of ENGINES) {
  describe(`rollout runs on ${engine}`, () => {
    let t: TestDb;
    let userId: string;
    /** The run of the studio-and-CLI test, done: the call view re-walks its sessions. */
    let doneRunId = "";
    before(async () => {
      t = await createTestDb(engine);
      userId = (await t.db.user.create({ data: { email: "rita@tracefold.test", name: "Rita", passwordHash: "x", role: "reviewer" } })).id;
    });
    after(async () => {
      await t.close();
    });

    test("bad settings are refused by field, an empty database by selection, and nothing is stored or queued", async () => {
      const queue = recordingQueue();
      const bad = await createRollout(t.db, queue, {
        settings: { policies: ["no-such-policy"], trigger: "150%", cacheTtl: "soon" },
        selection: { kind: "all" },
      });
      assert.equal(bad.ok, false);
      if (bad.ok) return;
      assert.equal(bad.code, "invalid_settings");
      assert.deepEqual(Object.keys(bad.fieldErrors ?? {}).sort(), ["cacheTtl", "policies", "trigger"]);
      const empty = await createRollout(t.db, queue, { settings: SETTINGS, selection: { kind: "all" } });
      assert.equal(empty.ok ? "created" : empty.code, "empty_selection");
      assert.equal(await t.db.rolloutRun.count(), 0);
      assert.deepEqual(queue.enqueued, []);
    });

    test("Studio and CLI give the same numbers: a job cancelled after two sessions and resumed stores what tracefold rollout prints", async () => {
      for (const path of FILES) assert.equal((await importTraceFile({ db: t.db, store: t.store, path, userId })).status, "imported");
      const queue = recordingQueue();
      const created = await createRollout(t.db, queue, { settings: SETTINGS, selection: { kind: "all" }, createdById: userId });
      assert.ok(created.ok, JSON.stringify(created));
      if (!created.ok) return;
      assert.equal(created.sessions, cli.sessions.length);
      assert.deepEqual(queue.enqueued, [{ name: "rollout-run", payload: { runId: created.runId } }]);

      // First attempt: cancelled once two sessions are stored; the run keeps them.
      const first = await runRollout(t.db, created.runId, {
        workerId: "worker-a",
        onSession: async (done) => {
          if (done === 2) assert.deepEqual(await cancelRollout(t.db, created.runId), { ok: true, status: "running" });
        },
      });
      assert.equal(first, "cancelled");
      const cancelled = await t.db.rolloutRun.findUniqueOrThrow({ where: { id: created.runId } });
      assert.deepEqual([cancelled.status, cancelled.done, cancelled.report], ["cancelled", 2, null]);
      assert.equal(await t.db.rolloutRunSession.count({ where: { runId: created.runId } }), 2);

      // Resumed through the job handler, as a worker runs it: the stored sessions are skipped, not walked again.
      assert.deepEqual(await resumeRollout(t.db, created.runId), { ok: true, status: "queued" });
      const controller = new AbortController();
      await rolloutRunHandler(t.db, queue, { workerId: "worker-b" })({ data: { runId: created.runId }, signal: controller.signal });
      const view = await getRollout(t.db, created.runId);
      assert.equal(view?.run.status, "done", view?.run.error ?? "");
      assert.equal(view.run.done, cli.sessions.length);
      assert.equal(await t.db.rolloutRunSession.count({ where: { runId: created.runId } }), cli.sessions.length);

      const studio = studioContract(view);
      assert.deepEqual(studio.policies, cli.policies);
      assert.equal(studio.trigger, cli.trigger);
      assert.equal(studio.window, cli.window);
      assert.deepEqual(
        studio.sessions,
        cli.sessions.map(({ file: _f, ...s }) => s),
      );
      // The figures say something: the control saves nothing and loses nothing; the others commit.
      const none = studio.policies.find((p) => p.id === "none")!;
      assert.deepEqual([none.reductionPct, none.lostSteps, none.restores, none.compactions], [0, 0, 0, 0]);
      assert.ok(
        studio.policies.filter((p) => p.id !== "none").every((p) => p.compactions > 0 && (p.reductionPct ?? 0) > 0),
        JSON.stringify(studio.policies),
      );
      const row = view.report!.policies.find((p) => p.id === "tool-prune")!;
      assert.ok(row.lostPer100Interval!.low <= row.lostStepsPer100! && row.lostStepsPer100! <= row.lostPer100Interval!.high, JSON.stringify(row));
      // Each session keeps its per-call series (the chart's data) and names the stored session it came from.
      assert.ok(view.sessions.every((s) => s.policies.every((p) => p.series.length === p.calls)));
      assert.ok(view.sessions.every((s) => s.sessionId && s.title !== undefined));
      doneRunId = created.runId;
    });

    test("with the hard limit at a 6,000-token window the studio's run is what --hard-limit prints; it cuts self-gc's calls over the window, and the call view re-walks with it", async () => {
      const file = FILES[1]!;
      const flags = ["--policies", "self-gc,none", "--window", "6000", "--trigger", "80%", "--cache-ttl", "1h", "--json"];
      const printed = (args: string[]) => {
        const run = spawnSync(process.execPath, [BIN, "rollout", file, ...args], { encoding: "utf8" });
        assert.equal(run.status, 0, run.stderr);
        return JSON.parse(run.stdout) as ReturnType<typeof toRolloutContract>;
      };
      const [off, on] = [printed(flags), printed([...flags, "--hard-limit"])];
      assert.deepEqual([off.hardLimit, on.hardLimit], [false, true]);
      const [selfOff, selfOn] = [off.policies[0]!, on.policies[0]!];
      assert.ok(selfOn.hardLimitCommits > 0 && selfOff.hardLimitCommits === 0, JSON.stringify([selfOff, selfOn]));
      assert.ok(selfOn.overflowCalls < selfOff.overflowCalls, `calls over the window: ${selfOff.overflowCalls} without, ${selfOn.overflowCalls} with`);
      assert.deepEqual(on.policies[1], off.policies[1], "none ignores targets: the hard limit changes nothing");

      const session = await t.db.traceSession.findFirstOrThrow({ where: { format: "mini_swe_agent_traj" }, select: { id: true } });
      const created = await createRollout(t.db, recordingQueue(), {
        settings: { policies: ["self-gc", "none"], window: 6000, trigger: "80%", cacheTtl: "1h", prices: "", hardLimit: true },
        selection: { kind: "sessions", ids: [session.id] },
      });
      assert.ok(created.ok, JSON.stringify(created));
      if (!created.ok) return;
      assert.equal(await runRollout(t.db, created.runId, { workerId: "w" }), "done");
      const view = (await getRollout(t.db, created.runId))!;
      const studio = studioContract(view);
      assert.deepEqual([studio.hardLimit, studio.policies], [true, on.policies]);
      assert.deepEqual(
        studio.sessions,
        on.sessions.map(({ file: _f, ...s }) => s),
      );
      // The view at the last call, after every hard-limit commit, is the prompt the run measured (the re-walk applies the limit too).
      const series = view.sessions[0]!.policies[0]!.series;
      const at = series.length - 1;
      const call = await getRolloutCall(t.db, { runId: created.runId, sessionId: session.id, policy: "self-gc", call: at });
      assert.equal(call.ok && call.data.matchesRun, true, JSON.stringify(call.ok ? call.data.tokens : call));
    });

    test("the view at the call where tool-prune lost a value is the prompt the run measured there; wrong ids and a deleted session say what is wrong", async () => {
      const view = (await getRollout(t.db, doneRunId))!;
      const s = view.sessions.find((x) => x.policies.find((p) => p.id === "tool-prune")!.firstLosses.length > 0)!;
      assert.ok(s, "tool-prune lost something in some session");
      const figures = s.policies.find((p) => p.id === "tool-prune")!;
      const first = figures.firstLosses[0]!;
      const got = await getRolloutCall(t.db, { runId: doneRunId, sessionId: s.sessionId, policy: "tool-prune", call: first.call });
      assert.ok(got.ok, JSON.stringify(got));
      if (!got.ok) return;
      const { data } = got;
      // Re-walked with the run's settings (trigger 80%, cache TTL 1h, the session's window): the call the run stored.
      assert.equal(data.matchesRun, true);
      assert.deepEqual([data.tokens.without, data.tokens.with, data.calls], [figures.series[first.call]![0], figures.series[first.call]![1], figures.calls]);
      assert.equal(data.tokens.view + data.tokens.restored, data.tokens.with);
      assert.deepEqual([data.message, data.window, data.policy], [first.message, s.window, "tool-prune"]);
      assert.deepEqual(
        data.lost.map((l) => l.value),
        first.values,
      );
      assert.ok(data.round >= 1 && data.lost.every((l) => l.round >= 1 && l.round <= data.round));
      const prompt = data.messages.flatMap((m) => m.parts.map((p) => p.text)).join("\n");
      for (const value of first.values) assert.ok(!prompt.includes(value), `lost ${value} is not in the prompt`);
      assert.ok(
        data.step.some((m) => m.parts.some((p) => first.values.some((v) => p.text.includes(v)))),
        "the step shown used a lost value",
      );

      const ask = (input: Partial<Parameters<typeof getRolloutCall>[1]>) =>
        getRolloutCall(t.db, { runId: doneRunId, sessionId: s.sessionId, policy: "tool-prune", call: first.call, ...input });
      const refused = async (input: Partial<Parameters<typeof getRolloutCall>[1]>) => {
        const outcome = await ask(input);
        return outcome.ok ? "ok" : [outcome.code, outcome.message];
      };
      assert.deepEqual(await refused({ runId: "no-such-run" }), ["not_found", "there is no such rollout run"]);
      assert.deepEqual(await refused({ sessionId: "no-such-session" }), ["session_not_in_run", "this session is not part of the rollout run"]);
      assert.deepEqual(await refused({ policy: "gist" }), ["policy_not_in_run", `the run did not roll out policy "gist": it has ${POLICIES.join(", ")}`]);
      assert.deepEqual(await refused({ call: figures.calls }), [
        "call_not_found",
        `the session has no call ${figures.calls + 1}: it has ${figures.calls} calls`,
      ]);
      // A session deleted after the run keeps its figures (no foreign key) but has no messages to show.
      const row = await t.db.rolloutRunSession.findFirstOrThrow({ where: { runId: doneRunId, sessionId: s.sessionId } });
      const gone = await t.db.rolloutRun.create({
        data: { name: "gone", settings: JSON.stringify(SETTINGS), sessionIds: JSON.stringify(["deleted-session"]), total: 1, status: "done", done: 1 },
      });
      await t.db.rolloutRunSession.create({ data: { runId: gone.id, sessionId: "deleted-session", position: 0, report: row.report, walks: row.walks } });
      assert.deepEqual(await refused({ runId: gone.id, sessionId: "deleted-session" }), [
        "session_deleted",
        "the session was deleted after the run: its figures stay in the run, but its messages are gone",
      ]);
      await t.db.rolloutRun.delete({ where: { id: gone.id } });
    });

    test("the job workers execute a rollout queued by the studio (npm run worker and the in-process worker register rollout-run)", async () => {
      const queue = engine === "postgres" ? createPgBossQueue(t.url, { supervise: false }) : createTableQueue(t.db, { pollMs: 50 });
      const workers = await startJobWorkers(t.db, queue, { store: t.store, sweepMs: 60_000, blobSweepMs: 0 });
      try {
        const created = await createRollout(t.db, queue, { settings: { ...SETTINGS, policies: ["none", "tool-prune"] }, selection: { kind: "all" } });
        assert.ok(created.ok);
        if (!created.ok) return;
        const deadline = Date.now() + 60_000;
        let status = "";
        while (Date.now() < deadline && status !== "done" && status !== "failed") {
          status = (await t.db.rolloutRun.findUniqueOrThrow({ where: { id: created.runId } })).status;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const run = await t.db.rolloutRun.findUniqueOrThrow({ where: { id: created.runId } });
        assert.deepEqual([run.status, run.done, run.error], ["done", created.sessions, null]);
        const pooled = JSON.parse(run.report!) as { policies: { id: string }[] };
        assert.deepEqual(
          pooled.policies.map((p) => p.id),
          ["none", "tool-prune"],
        );
      } finally {
        await workers.stop({ timeoutMs: 5_000 });
      }
    });

    test("a run left running by a worker that died goes back to the queue after its heartbeat goes stale, and only then", async () => {
      const queue = recordingQueue();
      const created = await createRollout(t.db, queue, { settings: { ...SETTINGS, policies: ["none"] }, selection: { kind: "all" } });
      assert.ok(created.ok);
      if (!created.ok) return;
      const beat = new Date();
      await t.db.rolloutRun.update({ where: { id: created.runId }, data: { status: "running", workerId: "dead-worker", heartbeatAt: beat } });
      assert.deepEqual(await reconcileRolloutRuns(t.db, queue, { workerId: "sweeper", staleMs: 60_000, now: new Date(beat.getTime() + 1_000) }), []);
      assert.equal((await t.db.rolloutRun.findUniqueOrThrow({ where: { id: created.runId } })).status, "running");
      assert.deepEqual(await reconcileRolloutRuns(t.db, queue, { workerId: "sweeper", staleMs: 60_000, now: new Date(beat.getTime() + 61_000) }), [
        created.runId,
      ]);
      assert.equal((await t.db.rolloutRun.findUniqueOrThrow({ where: { id: created.runId } })).status, "queued");
      assert.deepEqual(queue.enqueued.at(-1), { name: "rollout-run", payload: { runId: created.runId } });
      assert.equal(await runRollout(t.db, created.runId, { workerId: "sweeper" }), "done");
      assert.equal(await runRollout(t.db, created.runId, { workerId: "sweeper" }), null, "a second job for a finished run does nothing");
      assert.deepEqual(await resumeRollout(t.db, created.runId), {
        ok: false,
        code: "conflict",
        message: "the run is done; only cancelled or failed runs can be resumed",
      });
    });
  });
}
