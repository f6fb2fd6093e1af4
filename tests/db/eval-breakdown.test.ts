import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { aggregatePolicies } from "../../lib/evaluation/aggregate/aggregate";
import { sessionWorkload } from "../../lib/evaluation/suites/workload";
import { createRun } from "../../server/evaluation/create-run";
import { getRunAggregates } from "../../server/evaluation/get-run-aggregates";
import { getRunBreakdown } from "../../server/evaluation/get-run-breakdown";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { loadRunRecords } from "../../server/evaluation/run-records";
import { loadAnalyzedSession } from "../../server/trace/session/load-analyzed-session";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/**
 * The run page's Breakdown: per workload and per format, each group's rows equal aggregatePolicies
 * over exactly that group's stored results, with the workload classified from the stored tool
 * objects matching the one classified from the session re-analysed in memory.
 */
const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
];
const POLICIES = ["none", "tool-prune", "self-gc"];
const SETTINGS = { suite: { kind: "all" }, policies: POLICIES.map((id) => ({ id })), judge: "dependency", triggerLevel: 0.9 };

for (const engine of ENGINES) {
  describe(`evaluation breakdowns on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    const workloadOf = new Map<string, string>();
    const formatOf = new Map<string, string>();
    before(async () => {
      t = await createTestDb(engine);
      for (const path of TRACES) {
        const outcome = await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, path) });
        assert.equal(outcome.status, "imported", path);
        if (outcome.status !== "imported") continue;
        for (const { id } of outcome.sessions) {
          const analyzed = (await loadAnalyzedSession(t.db, id))!;
          workloadOf.set(id, sessionWorkload(analyzed.index).workload);
          formatOf.set(id, analyzed.session.format);
        }
      }
      const created = await createRun(t.db, { settings: SETTINGS });
      assert.ok(created.ok, JSON.stringify(created));
      runId = created.runId;
      assert.equal(await runEvaluation(t.db, runId, { workerId: "test-worker", llm: null }), "done");
    });
    after(async () => {
      await t.close();
    });

    for (const [by, labelsOf] of [
      ["workload", () => workloadOf],
      ["format", () => formatOf],
    ] as const) {
      test(`by ${by}: each group's rows are aggregatePolicies over that group's results`, async () => {
        const labels = labelsOf();
        const records = await loadRunRecords(t.db, runId);
        const breakdown = (await getRunBreakdown(t.db, runId, by))!;
        assert.equal(breakdown.by, by);
        const expectedGroups = new Set(records.map((r) => labels.get(r.sessionId)!));
        assert.deepEqual(new Set(breakdown.groups.map((g) => g.group)), expectedGroups);
        assert.ok(breakdown.groups.length >= 2, `several ${by} groups: ${breakdown.groups.map((g) => g.group)}`);
        for (const g of breakdown.groups) {
          const subset = records.filter((r) => labels.get(r.sessionId) === g.group);
          assert.deepEqual(g.policies, aggregatePolicies(subset, POLICIES), g.group);
          assert.equal(g.sessions, new Set(subset.map((r) => r.sessionId)).size);
          assert.equal(g.cuts, new Set(subset.map((r) => `${r.sessionId}#${r.cut}`)).size);
        }
        const whole = (await getRunAggregates(t.db, runId))!;
        for (const [i, row] of whole.policies.entries()) {
          assert.equal(
            breakdown.groups.reduce((n, g) => n + g.policies[i]!.n, 0),
            row.n,
            `${row.id}: groups partition the run`,
          );
        }
      });
    }

    test("the workload groups name the tool mix: mini-swe-agent is shell work", async () => {
      const breakdown = (await getRunBreakdown(t.db, runId, "workload"))!;
      const mini = [...formatOf].find(([, f]) => f === "mini_swe_agent_traj")![0];
      assert.equal(workloadOf.get(mini), "shell");
      assert.ok(breakdown.groups.some((g) => g.group === "shell"));
    });

    test("an unknown run is null", async () => {
      assert.equal(await getRunBreakdown(t.db, "no-such-run", "format"), null);
    });
  });
}
