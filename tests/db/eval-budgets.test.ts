import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { contractPolicy } from "../../cli/evaluation/report";
import { EvalReportSchema, type EvalReportContract } from "../../lib/evaluation/aggregate/report-contract";
import { createRun } from "../../server/evaluation/create-run";
import { buildReproductionPackage } from "../../server/evaluation/export/build-package";
import { compactionFrequency } from "../../server/evaluation/compaction-frequency";
import { getRunAggregates, type RunAggregates } from "../../server/evaluation/get-run-aggregates";
import { getCutEvidence, listRunCuts } from "../../server/evaluation/list-run-cuts";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { loadRunRecords } from "../../server/evaluation/run-records";
import { getRunView } from "../../server/evaluation/run-view";
import { loadJudgedCuts } from "../../server/review/judged-cuts";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { readZip } from "../helpers/read-zip";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/**
 * A run with a budget sweep and matched budgets (issue 16) over real traces, persisted on both
 * engines: its per-policy figures, curves, matched comparison (bootstrap intervals and McNemar p
 * included) and judge sensitivity equal what `tracefold eval --sweep --match --sensitivity --json`
 * prints for the same files; the new columns are stored and read back (and rows stored before them
 * read as before); the drill-down filters by budget; the reproduction package recomputes every new
 * figure with `node recompute.mjs`.
 */
const BIN = resolve(__dirname, "../../cli/bin.mjs");
/** Four sessions, ten cuts; self-gc compacts at most of them, so matched units differ and the bootstrap has width. */
const TRACES = [
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/sqlfluff__sqlfluff-1763/sqlfluff__sqlfluff-1763.traj.json",
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
].map((p) => join(TRACES_DIR, p));
const POLICIES = ["self-gc", "oldest-turn", "tool-prune"];
const SWEEP = [30, 50];
const SETTINGS = { suite: { kind: "all" }, policies: POLICIES.map((id) => ({ id })), judge: "dependency", sweep: SWEEP, match: "self-gc" };

/** The CLI's report for the same files, policies and budgets (one process, run once for both engines). */
let cli: EvalReportContract;
before(() => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TRACEFOLD_LLM_"))) as NodeJS.ProcessEnv;
  const run = spawnSync(
    process.execPath,
    [BIN, "eval", ...TRACES, "--policies", POLICIES.join(","), "--sweep", SWEEP.join(","), "--match", "self-gc", "--sensitivity", "--json"],
    { encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(run.status, 0, run.stderr);
  cli = EvalReportSchema.parse(JSON.parse(run.stdout));
});

/** The studio's figures in the CLI's shape. */
function asReport(a: RunAggregates) {
  const { failedUnits: _failed, ...matched } = a.matched!;
  return { policies: a.policies.map(({ failedUnits: _f, ...p }) => contractPolicy(p)), curves: a.curves, matched, sensitivity: a.sensitivity };
}

for (const engine of ENGINES) {
  describe(`budgeted evaluation runs on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    let total: number;
    const tmp = mkdtempSync(join(tmpdir(), "tracefold-budgets-"));
    before(async () => {
      t = await createTestDb(engine);
      for (const path of TRACES) assert.equal((await importTraceFile({ db: t.db, store: t.store, path })).status, "imported", path);
      const created = await createRun(t.db, { settings: SETTINGS, name: "budgets" });
      assert.ok(created.ok, JSON.stringify(created));
      runId = created.runId;
      total = created.total;
      assert.equal(await runEvaluation(t.db, runId, { workerId: "budget-test", llm: null, batchSize: 7 }), "done");
    });
    after(async () => {
      await t.close();
      rmSync(tmp, { recursive: true, force: true });
    });

    test("the total counts every unit kind, and the run stores exactly that many", async () => {
      assert.equal(total, cli.suite.cuts * POLICIES.length * (1 + SWEEP.length + 1));
      const run = await t.db.evalRun.findUniqueOrThrow({ where: { id: runId } });
      assert.deepEqual([run.status, run.done, run.total, run.failed], ["done", total, total, 0]);
      const byBudget = await t.db.evalResult.groupBy({ by: ["budget"], where: { runId }, _count: { _all: true } });
      const counts = Object.fromEntries(byBudget.map((g) => [g.budget ?? "own", g._count._all]));
      const perBudget = cli.suite.cuts * POLICIES.length;
      assert.deepEqual(counts, { own: perBudget, "budget-30": perBudget, "budget-50": perBudget, "match-self-gc": perBudget });
    });

    test("policies, curves, matched comparison and sensitivity equal the CLI's JSON for the same traces", async () => {
      const aggregates = (await getRunAggregates(t.db, runId))!;
      const studio = asReport(aggregates);
      assert.deepEqual(studio.policies, cli.policies);
      assert.deepEqual(studio.curves, cli.curves);
      assert.deepEqual(studio.matched, cli.matched);
      assert.deepEqual(studio.sensitivity, cli.sensitivity);
      assert.deepEqual(aggregates.budgets, ["budget-30", "budget-50", "match-self-gc"]);
      assert.deepEqual(aggregates.matched!.failedUnits, {});
      assert.ok(studio.matched.paired.length === 4 && studio.curves.length === POLICIES.length * SWEEP.length);
      assert.ok(
        studio.matched.paired.some((d) => d.ci95[1] > d.ci95[0]),
        "a bootstrap interval with width: the session resampling is compared, not only a point",
      );
      assert.ok(
        studio.matched.policies.some((p) => p.prunePct > 0),
        "the reference compacted somewhere, so matched units compacted too",
      );
      assert.ok(studio.policies.every((p) => p.netPrunePct !== null && p.visibleNoImpactPct !== null && p.restoresPerCut !== null));
    });

    test("the new columns are stored per unit and match the verdict; a row stored before them reads as before", async () => {
      const rows = await t.db.evalResult.findMany({ where: { runId } });
      for (const row of rows) {
        const verdict = JSON.parse(row.verdict) as {
          visibleNoImpact: boolean;
          restorableNoImpact: boolean;
          evidence: { restores: { cost: number }[]; counts: { byKind: unknown } };
        };
        assert.equal(row.visibleNoImpact, verdict.visibleNoImpact, row.unitKey);
        assert.equal(row.restorableNoImpact, verdict.restorableNoImpact, row.unitKey);
        assert.equal(row.restores, verdict.evidence.restores.length, row.unitKey);
        assert.equal(
          row.restoreTokens,
          verdict.evidence.restores.reduce((n, r) => n + r.cost, 0),
          row.unitKey,
        );
        assert.ok(Math.abs(row.netPruneRate! - (1 - (row.tokensAfter + row.restoreTokens!) / row.prefixTokens)) < 1e-12, row.unitKey);
        assert.deepEqual(JSON.parse(row.byKind!), verdict.evidence.counts.byKind);
        assert.equal(row.budget === null, !/#(budget|match)-/.test(row.unitKey), row.unitKey);
        if (row.budget?.startsWith("budget-")) assert.ok(row.targetTokens !== null, `${row.unitKey} has its sweep target`);
      }
      // An EvalResult as stored before migration 0012: no budget, no readings.
      const old = await t.db.evalRun.create({
        data: {
          name: "old",
          settings: JSON.stringify({ suite: { kind: "all" }, policies: [{ id: "none" }], judge: "dependency" }),
          sessionIds: "[]",
          status: "done",
          total: 1,
          done: 1,
        },
      });
      await t.db.evalResult.create({
        data: {
          runId: old.id,
          unitKey: "s#3#none",
          sessionId: "s",
          cut: 3,
          cutReason: "share-50",
          policy: "none",
          prefixTokens: 100,
          tokensAfter: 100,
          noImpact: true,
          missingByCategory: "{}",
          verdict: "null",
        },
      });
      assert.deepEqual(await loadRunRecords(t.db, old.id), [
        { policy: "none", sessionId: "s", cut: 3, prefixTokens: 100, tokensAfter: 100, pruneRate: 0, noImpact: true, missingByCategory: {} },
      ]);
      const aggregates = (await getRunAggregates(t.db, old.id))!;
      assert.deepEqual(
        [aggregates.policies[0]!.netPrunePct, aggregates.policies[0]!.visibleNoImpactPct, aggregates.curves, aggregates.matched, aggregates.budgets],
        [null, null, [], null, []],
      );
      const view = await getRunView(t.db, old.id, { calibrationFile: join(tmp, "absent.json") });
      assert.deepEqual(view!.calibration, { state: "absent" });
      assert.equal(view!.run.settings!.pointers, "semantic", "stored settings without pointers read with the default");
    });

    test("the drill-down lists the cuts of one budget, with readings, counts and restores; review and frequency keep to own settings", async () => {
      const own = await listRunCuts(t.db, runId, "oldest-turn");
      const matched = await listRunCuts(t.db, runId, "oldest-turn", "match-self-gc");
      const swept = await listRunCuts(t.db, runId, "oldest-turn", "budget-50");
      assert.equal(own.length, cli.suite.cuts);
      assert.deepEqual([matched.length, swept.length], [cli.suite.cuts, cli.suite.cuts]);
      assert.ok(own.every((c) => c.budget === null) && matched.every((c) => c.budget === "match-self-gc"));
      assert.ok(swept.every((c) => c.targetTokens !== null && c.counts !== null && c.visibleNoImpact !== null));
      const agg = (await getRunAggregates(t.db, runId))!.matched!.policies.find((p) => p.policy === "oldest-turn")!;
      assert.equal(matched.filter((c) => c.restorableNoImpact).length, Math.round((agg.noImpactPct * agg.n) / 100));
      const withRestore = [...own, ...matched, ...swept].find((c) => (c.restores ?? 0) > 0);
      if (withRestore) {
        const evidence = (await getCutEvidence(t.db, runId, withRestore.unitKey))!;
        assert.equal(evidence.restores.length, withRestore.restores);
        assert.equal(evidence.counts!.restorable > 0, true);
        assert.ok(
          evidence.dependencies.some((d) => d.status === "restorable" && d.sidecar),
          "a restorable dependency names its sidecar",
        );
      }
      const judged = await loadJudgedCuts(t.db, runId);
      assert.equal(judged.length, cli.suite.cuts * POLICIES.length, "review queues build from own-settings units only");
      const frequency = await compactionFrequency(t.db, runId);
      assert.deepEqual(
        frequency!.map((f) => f.cuts),
        POLICIES.map(() => cli.suite.cuts),
      );
    });

    test("the reproduction package carries the harness settings and recompute.mjs checks every new figure", async () => {
      const outcome = await buildReproductionPackage(t.db, runId, new Date("2026-11-26T12:00:00Z"));
      assert.ok(outcome.ok);
      const root = outcome.filename.replace(/\.zip$/, "");
      const files = readZip(Buffer.concat(outcome.chunks));
      const text = (name: string) => files.get(`${root}/${name}`)!.toString("utf8");
      const settings = JSON.parse(text("settings.json")) as { settings: { pointers: string; sweep: number[]; match: string } };
      assert.deepEqual([settings.settings.pointers, settings.settings.sweep, settings.settings.match], ["semantic", SWEEP, "self-gc"]);
      assert.ok(text("README.md").includes(`--pointers semantic --sweep 30,50 --match self-gc`));
      const estimate = text("token-estimates.jsonl")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((e) => e.budget === "budget-30")!;
      for (const key of ["targetTokens", "netPruneRate", "restores", "restoreTokens"]) assert.ok(key in estimate, key);
      const patches = text("candidate-patches.jsonl")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { reproduced: boolean; unitKey: string });
      assert.ok(
        patches.every((p) => p.reproduced),
        `patches regenerate at their budgets: ${patches
          .filter((p) => !p.reproduced)
          .map((p) => p.unitKey)
          .join(", ")}`,
      );
      const selfGc = [...files.keys()].filter((n) => n.includes("/planner-outputs/self-gc/"));
      assert.equal(new Set(selfGc).size, selfGc.length);
      assert.ok(selfGc.some((n) => n.endsWith("-match-self-gc.xml")) && selfGc.some((n) => n.endsWith("-budget-30.xml")));

      const dir = join(tmp, "extract");
      for (const [name, data] of files) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), data);
      }
      const script = join(dir, root, "recompute.mjs");
      const ok = spawnSync(process.execPath, [script], { encoding: "utf8" });
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, /OK: all \d+ figures of aggregates.json match/);
      assert.match(ok.stdout, /matched to self-gc: oldest-turn noImpact /);

      const aggregatesPath = join(dir, root, "aggregates.json");
      const original = text("aggregates.json");
      const tamper = (edit: (a: RunAggregates) => void, expected: RegExp) => {
        const a = JSON.parse(original) as RunAggregates;
        edit(a);
        writeFileSync(aggregatesPath, JSON.stringify(a));
        const bad = spawnSync(process.execPath, [script], { encoding: "utf8" });
        assert.equal(bad.status, 1);
        assert.match(bad.stderr, expected);
      };
      const wide = (JSON.parse(original) as RunAggregates).matched!.paired.findIndex((d) => d.ci95[1] > d.ci95[0]);
      const widePair = cli.matched!.paired[wide]!;
      tamper(
        (a) => {
          a.matched!.paired[wide]!.ci95[1] -= 0.01;
        },
        new RegExp(`MISMATCH matched\\.${widePair.policy}\\.${widePair.metric} \\(diff, bootstrap CI, McNemar p\\)`),
      );
      tamper((a) => {
        a.matched!.paired[0]!.mcnemarP /= 2;
      }, /MISMATCH matched\.oldest-turn\.noImpact/);
      tamper((a) => {
        a.curves[0]!.netPrunePct! += 0.01;
      }, /MISMATCH curves/);
      tamper((a) => {
        a.policies[1]!.visibleCi95![0] += 0.01;
      }, /MISMATCH oldest-turn\.visibleCi95/);
      tamper((a) => {
        a.policies[0]!.netPrunePct! += 0.01;
      }, /MISMATCH self-gc\.netPrunePct/);
      tamper((a) => {
        a.sensitivity[0]!.holds += 1;
      }, /MISMATCH sensitivity/);
    });
  });
}
