import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { z } from "zod";
import { ContractPolicySchema, EvalReportSchema } from "../../../lib/evaluation/aggregate/report-contract";
import { UsageError } from "../../../cli/args";
import { loadSessions, type LoadedSuite } from "../../../cli/evaluation/load-sessions";
import { parseEvalOptions } from "../../../cli/evaluation/options";
import { replayCuts } from "../../../lib/evaluation/cuts/cut-protocol";
import { sessionWorkload, WORKLOADS } from "../../../lib/evaluation/suites/workload";
import { FORMAT_IDS } from "../../../lib/trace/model";
import { wilson } from "../../../lib/stats/wilson";
import { TRACES_DIR } from "../../helpers/traces";

/**
 * `tracefold eval --by workload|format` through the real binary on four real traces of different
 * formats and workloads: the `breakdown` object appears only with the flag, its groups partition
 * the suite, and each group's rows are consistent with the sessions it holds.
 */
const BIN = resolve(__dirname, "../../../cli/bin.mjs");
const SUBSET = [
  // tool_heavy.jsonl has no replay cut since its split responses merged: its last safe cut is at 47% of the session.
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
  "aider_chat_md/AFI-Protocol__afi-core/.aider.chat.history.md",
];
const POLICIES = ["none", "tool-prune"];

/** The documented contract, with the group counts a breakdown must have. */
const ReportSchema = EvalReportSchema.extend({
  breakdown: z
    .record(z.string(), z.strictObject({ sessions: z.number().int().positive(), cuts: z.number().int().positive(), policies: z.array(ContractPolicySchema) }))
    .optional(),
});

function tracefold(args: string[]) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TRACEFOLD_LLM_"))) as NodeJS.ProcessEnv;
  const run = spawnSync(process.execPath, [BIN, "eval", subset, "--policies", POLICIES.join(","), ...args], {
    encoding: "utf8",
    env: clean,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

let subset: string;
let loaded: LoadedSuite;
before(async () => {
  subset = mkdtempSync(join(tmpdir(), "tracefold-eval-by-"));
  SUBSET.forEach((path, i) => {
    mkdirSync(join(subset, String(i)));
    copyFileSync(join(TRACES_DIR, path), join(subset, String(i), basename(path)));
  });
  loaded = await loadSessions([subset]);
});
after(() => rmSync(subset, { recursive: true, force: true }));

/** The groups partition the suite: per policy, n and noImpact add up to the suite row; each group's sessions and cuts are its own. */
function checkPartition(stdout: string, labelOf: (s: LoadedSuite["sessions"][number]) => string, order: readonly string[]) {
  const report = ReportSchema.parse(JSON.parse(stdout));
  const breakdown = report.breakdown!;
  assert.ok(breakdown, "breakdown present with --by");
  const withCuts = loaded.sessions.filter((s) => replayCuts(s.session, s.index).length > 0);
  const expected = [...new Set(withCuts.map(labelOf))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  assert.deepEqual(Object.keys(breakdown), expected, "groups with judged cuts, in the fixed order");
  for (const [group, g] of Object.entries(breakdown)) {
    const members = withCuts.filter((s) => labelOf(s) === group);
    assert.equal(g.sessions, members.length, group);
    assert.equal(
      g.cuts,
      members.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0),
      group,
    );
    assert.deepEqual(
      g.policies.map((p) => p.id),
      POLICIES,
    );
    for (const p of g.policies) {
      assert.equal(p.n, g.cuts, `${group} ${p.id}: judged at every cut of the group`);
      const interval = wilson(p.noImpact, p.n);
      assert.deepEqual(p.ci95, [Math.round(10_000 * interval.low) / 100, Math.round(10_000 * interval.high) / 100]);
    }
  }
  for (const [i, row] of report.policies.entries()) {
    const groups = Object.values(breakdown).map((g) => g.policies[i]!);
    assert.equal(
      groups.reduce((n, p) => n + p.n, 0),
      row.n,
      row.id,
    );
    assert.equal(
      groups.reduce((n, p) => n + p.noImpact, 0),
      row.noImpact,
      row.id,
    );
    const meanPrune = groups.reduce((x, p) => x + p.prunePct * p.n, 0) / row.n;
    assert.ok(Math.abs(meanPrune - row.prunePct) < 0.05, `${row.id}: group prune rates weigh back to the suite's`);
  }
  return breakdown;
}

describe("tracefold eval --by", () => {
  test("--by workload groups the suite by each session's tool mix", () => {
    const run = tracefold(["--by", "workload", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const breakdown = checkPartition(run.stdout, (s) => sessionWorkload(s.index).workload, WORKLOADS);
    assert.ok(Object.keys(breakdown).length >= 2, `several workloads: ${Object.keys(breakdown)}`);
    assert.ok(breakdown.shell, "mini-swe-agent is shell work");
  });

  test("--by format groups by trace format", () => {
    const run = tracefold(["--by", "format", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const breakdown = checkPartition(run.stdout, (s) => s.session.format, FORMAT_IDS);
    assert.ok(breakdown.mini_swe_agent_traj && breakdown.claude_code_jsonl);
  });

  test("without --by the JSON has no breakdown; the table prints the grouped rows", () => {
    const plain = tracefold(["--json"]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal("breakdown" in JSON.parse(plain.stdout), false);
    const table = tracefold(["--by", "workload"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^by workload:$/m);
    assert.match(table.stdout, /^shell \(\d+ sessions?\)\s+none\s+\d+/m);
    assert.match(table.stdout, /^\s+tool-prune\s+\d+\s+[\d.]+\s+[\d.]+ \(\d+\/\d+\)/m);
  });

  test("an unknown --by is a usage error naming the choices", () => {
    assert.throws(
      () => parseEvalOptions([subset, "--by", "tools"]),
      (e: unknown) => e instanceof UsageError && /unknown --by tools; expected workload or format/.test(e.message),
    );
    assert.equal(parseEvalOptions([subset, "--by", "format"]).by, "format");
    assert.equal(parseEvalOptions([subset]).by, undefined);
  });
});
