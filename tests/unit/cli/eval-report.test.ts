import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadSessions } from "../../../cli/evaluation/load-sessions";
import { parseEvalOptions } from "../../../cli/evaluation/options";
import type { ContractComparison } from "../../../cli/evaluation/report";
import { replayCuts } from "../../../lib/evaluation/cuts/cut-protocol";
import { selectSuite } from "../../../lib/evaluation/suites/suites";
import { POLICIES } from "../../../lib/compaction/policies/registry";
import { FAILURE_CATEGORY_IDS } from "../../../lib/scenario/failure-categories";
import { wilson } from "../../../lib/stats/wilson";
import { copySubsetForFile, parseReport, ReportSchema, tracefold, type Report } from "../../helpers/eval-cli";

/** `tracefold eval --json`: the report contract on real traces, and what --policies, --suite, --filter, --cut-levels and --compare do to it. */
const round2 = (x: number) => Math.round(x * 100) / 100;

const subset = copySubsetForFile();

describe("tracefold eval --json", () => {
  test("all policies on real traces: one contract object, percentages and intervals consistent", () => {
    const run = tracefold([subset, "--policies", "all", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assert.equal(report.judge, "dependency");
    assert.deepEqual(
      report.policies.map((p) => p.id),
      POLICIES.map((p) => p.id),
    );
    assert.ok(report.suite.cuts >= 10, `cuts: ${report.suite.cuts}`);
    for (const p of report.policies) {
      assert.equal(p.n, report.suite.cuts, `${p.id} judged at every cut`);
      assert.equal(p.cuts, p.n);
      assert.equal(p.noImpactPct, round2((100 * p.noImpact) / p.n), p.id);
      const interval = wilson(p.noImpact, p.n);
      assert.deepEqual(p.ci95, [round2(100 * interval.low), round2(100 * interval.high)], p.id);
      assert.deepEqual(Object.keys(p.failures).slice(0, 6), [...FAILURE_CATEGORY_IDS], p.id);
      const impacted = p.n - p.noImpact;
      for (const count of Object.values(p.failures)) assert.ok(count <= impacted, `${p.id}: a category counts impacted cuts`);
      if (impacted > 0)
        assert.ok(
          Object.values(p.failures).some((c) => c > 0),
          `${p.id}: impacted cuts have a category`,
        );
    }
    const pruned = report.policies.filter((p) => p.prunePct > 0);
    assert.ok(pruned.length >= 10, "most policies prune something at 90% pressure");
    assert.ok(
      report.policies.some((p) => p.noImpactPct < 100),
      "some policy loses a dependency on these traces",
    );
  });

  test("--policies none,tool-prune: the control keeps everything, in the order asked", async () => {
    const run = tracefold([subset, "--policies", "none,tool-prune", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assert.deepEqual(
      report.policies.map((p) => p.id),
      ["none", "tool-prune"],
    );
    const [none, prune] = report.policies;
    assert.equal(none!.noImpactPct, 100);
    assert.equal(none!.prunePct, 0);
    assert.ok(Object.values(none!.failures).every((c) => c === 0));
    assert.ok(prune!.prunePct > 0);
    const loaded = await loadSessions([subset]);
    assert.equal(report.suite.sessions, loaded.sessions.length);
    assert.equal(
      report.suite.cuts,
      loaded.sessions.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0),
      "suite.cuts counts session × cut",
    );
  });

  test("--suite hard runs the Hard Set only", async () => {
    const run = tracefold([subset, "--policies", "none,tool-prune", "--suite", "hard", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    const hard = selectSuite((await loadSessions([subset])).sessions, { kind: "hard" });
    assert.ok(hard.length >= 1);
    assert.equal(report.suite.sessions, hard.length);
    assert.equal(
      report.suite.cuts,
      hard.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0),
    );
    assert.equal(report.policies[0]!.n, report.suite.cuts);
  });

  test("--filter narrows the suite to the sessions lib's filter selects (and the Hard Set ranks within them)", async () => {
    const run = tracefold([subset, "--policies", "none", "--filter", "format=claude-code,minMessages=20", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    const chosen = selectSuite((await loadSessions([subset])).sessions, { kind: "filter", filter: { formats: ["claude_code_jsonl"], minMessages: 20 } });
    assert.ok(chosen.length >= 1 && chosen.every((s) => s.session.format === "claude_code_jsonl" && s.session.messages.length >= 20));
    assert.equal(report.suite.sessions, chosen.length);
    assert.equal(
      report.suite.cuts,
      chosen.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0),
    );
    assert.deepEqual(parseEvalOptions([subset, "--suite", "hard", "--filter", "workload=shell"]).filter, { workloads: ["shell"] });
  });

  test("--cut-levels 10,…,90 cuts each session at every level: more cuts, counted and judged with those levels", async () => {
    const levels = [10, 20, 30, 40, 50, 60, 70, 80, 90];
    const run = tracefold([subset, "--policies", "none", "--cut-levels", levels.join(","), "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    const loaded = (await loadSessions([subset])).sessions;
    const dense = loaded.reduce((n, s) => n + replayCuts(s.session, s.index, { levels }).length, 0);
    assert.equal(report.suite.cuts, dense);
    assert.ok(dense > loaded.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0), "denser levels give more cuts");
    assert.equal(report.policies[0]!.n, dense);
    assert.deepEqual(parseEvalOptions([subset]).cutLevels, [50, 70, 90]);
  });

  test("--compare adds McNemar's paired comparison and leaves the contract's keys alone", () => {
    const run = tracefold([subset, "--policies", "none,tool-prune", "--compare", "none,tool-prune", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const { comparison, ...rest } = JSON.parse(run.stdout) as Report & { comparison: ContractComparison };
    const [none, prune] = ReportSchema.parse(rest).policies;
    assert.equal(comparison.pairs, none!.n);
    assert.equal(comparison.onlyB, 0, "the control never loses where tool-prune keeps");
    assert.equal(comparison.onlyA, none!.noImpact - prune!.noImpact);
    assert.equal(comparison.both + comparison.onlyA + comparison.onlyB + comparison.neither, comparison.pairs);
    assert.ok(comparison.pValue > 0 && comparison.pValue <= 1);
  });
});
