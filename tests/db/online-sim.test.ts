import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { toSimulateContract } from "../../cli/commands/simulate";
import { getOnlineReport } from "../../server/online/online-report";
import { OnlineQuerySchema } from "../../server/online/report-query";
import { selectSimSessions, simulateStoredSessions, SimulationRefused } from "../../server/online/simulate-stored";
import { usageLogFromTraces } from "../../server/online/usage-from-traces";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const BIN = resolve(__dirname, "../../cli/bin.mjs");
/**
 * Real traces that carry provider usage per call: two Claude Code files and two mini-swe-agent runs.
 * The first Claude Code file holds a main session and five inline subagent threads, each a session:
 * nine sessions in all.
 */
const FILES = [
  "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
  "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_chat_test_1-100/django__django-11099/django__django-11099.traj.json",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json",
].map((p) => join(TRACES_DIR, p));

/** `tracefold simulate … --json` in a child process, as a user runs it. */
function runSimulateCli(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, "simulate", ...args], { encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const bySession = <T extends { session: string }>(rows: T[]) => [...rows].sort((a, b) => a.session.localeCompare(b.session));

for (const engine of ENGINES) {
  describe(`online simulator and traces as traffic on ${engine}`, () => {
    let t: TestDb;
    let userId: string;
    before(async () => {
      t = await createTestDb(engine);
      userId = (await t.db.user.create({ data: { email: "olga@tracefold.test", name: "Olga", passwordHash: "x", role: "reviewer" } })).id;
    });
    after(async () => {
      await t.close();
    });

    test("with no trace stored: traces-as-traffic says empty and writes nothing; the simulator refuses an empty selection", async () => {
      const outcome = await usageLogFromTraces({ db: t.db, store: t.store, userId, account: "uploader" });
      assert.deepEqual(outcome, { status: "empty", sessions: 0, skipped: 0 });
      assert.equal(await t.db.usageLog.count(), 0);
      await assert.rejects(simulateStoredSessions(t.db, [], { policyId: "tool-prune" }), SimulationRefused);
    });

    test("the studio's simulation of stored traces prints the same numbers as tracefold simulate on the files", async () => {
      for (const path of FILES) assert.equal((await importTraceFile({ db: t.db, store: t.store, path, userId })).status, "imported");
      const ids = await selectSimSessions(t.db, { kind: "all" });
      assert.equal(ids.length, 9);
      const progress: number[] = [];
      const studio = await simulateStoredSessions(t.db, ids, {
        policyId: "tool-prune",
        trigger: 0.8,
        prices: { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
        onProgress: (done) => progress.push(done),
      });
      assert.deepEqual(progress, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
      const cli = runSimulateCli(...FILES, "--policy", "tool-prune", "--trigger", "80%", "--prices", "input=3", "--json");
      assert.equal(cli.code, 0, cli.stderr);
      const printed = JSON.parse(cli.stdout) as ReturnType<typeof toSimulateContract>;
      const mine = toSimulateContract(studio);
      assert.deepEqual(mine.pooled, printed.pooled);
      assert.deepEqual(bySession(mine.sessions.map(({ file: _f, ...s }) => s)), bySession(printed.sessions.map(({ file: _f, ...s }) => s)));
      assert.equal(printed.trigger, 0.8);
      assert.ok(printed.pooled.compactions >= 4 && printed.pooled.reductionPct! > 0, JSON.stringify(printed.pooled));
      // Fewer prompt tokens need not cost less: each commit re-writes the prompt at the cache-write price.
      assert.ok(printed.pooled.cost!.with > 0 && printed.pooled.cost!.without > 0 && printed.pooled.cacheBreakTokens > 0, JSON.stringify(printed.pooled));
      assert.equal(studio.curve[0]!.sessions, 9);
    });

    test("a fixed window and a format selection reach the same sessions and numbers as the CLI with --window", async () => {
      const ids = await selectSimSessions(t.db, { kind: "format", format: "mini_swe_agent_traj" });
      assert.equal(ids.length, 2);
      const studio = await simulateStoredSessions(t.db, ids, { policyId: "oldest-turn", window: 12_000 });
      const cli = runSimulateCli(...FILES.slice(2), "--policy", "oldest-turn", "--window", "12000", "--json");
      assert.equal(cli.code, 0, cli.stderr);
      const printed = JSON.parse(cli.stdout) as ReturnType<typeof toSimulateContract>;
      const { cost: _cost, ...pooled } = toSimulateContract(studio).pooled;
      assert.deepEqual(pooled, printed.pooled);
      assert.equal(printed.window, 12_000);
      const picked = await selectSimSessions(t.db, { kind: "sessions", ids: [ids[0]!, "no-such-session"] });
      assert.deepEqual(picked, [ids[0]]);
    });

    test("usage from the stored traces becomes a usage log like an upload: slots, report, and the same log again on a second ask", async () => {
      const outcome = await usageLogFromTraces({ db: t.db, store: t.store, userId, account: "session" });
      assert.equal(outcome.status, "imported", JSON.stringify(outcome));
      if (outcome.status !== "imported") return;
      const withUsage = await t.db.traceMessage.count({ where: { usage: { not: null } } });
      assert.ok(outcome.rows > 50 && outcome.rows <= withUsage, `${outcome.rows} rows of ${withUsage} messages with usage`);
      const slots = await t.db.usageSlot.aggregate({ where: { logId: outcome.logId }, _sum: { calls: true }, _count: { _all: true } });
      assert.equal(slots._sum.calls, outcome.rows);
      const log = await t.db.usageLog.findUniqueOrThrow({ where: { id: outcome.logId } });
      assert.ok(await t.store.exists(log.storageKey), "the generated CSV is kept like an uploaded file");
      const report = await getOnlineReport(t.db, outcome.logId, OnlineQuerySchema.parse({ assign: "hash:s", window: "00:00-24:00" }));
      assert.ok(report?.report, "the report builds from the stored slots");
      assert.equal(report.report.groups.treatment.calls + report.report.groups.control.calls, outcome.rows);
      const again = await usageLogFromTraces({ db: t.db, store: t.store, userId, account: "session" });
      assert.deepEqual(again, { status: "duplicate", logId: outcome.logId, fileName: log.fileName });
      const uploader = await usageLogFromTraces({ db: t.db, store: t.store, userId, account: "uploader" });
      assert.equal(uploader.status, "imported");
      const accounts = await t.db.usageSlot.findMany({
        where: { logId: uploader.status === "imported" ? uploader.logId : "" },
        distinct: ["account"],
        select: { account: true },
      });
      assert.deepEqual(accounts, [{ account: "olga@tracefold.test" }]);
    });
  });
}
