import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { parseGold } from "../../../lib/evaluation/calibration/gold";
import { JUDGE_VERSION } from "../../../lib/evaluation/judge/version";
import { CalibrationReportSchema, EvalReportSchema } from "../../../lib/evaluation/aggregate/report-contract";
import { CALIBRATION_FILE, computeCalibration, GOLD_FILE, HOLDOUT_FILE } from "../../../scripts/calibration-report";
import { TRACES_DIR } from "../../helpers/traces";

/**
 * The judge's agreement with the gold set (issue 16, item 6) is a checked-in figure the README and
 * the studio show: this fails when gold/judge-calibration.json is not what the current judge gives
 * over the gold set, so a judge change cannot leave stale figures (regenerate: npm run calibrate).
 */
const ROOT = resolve(__dirname, "../../..");

test("the gold sets parse: every unit validates, every label names its unit's view, no unit is in both", () => {
  const main = parseGold(readFileSync(resolve(ROOT, GOLD_FILE), "utf8"));
  const holdout = parseGold(readFileSync(resolve(ROOT, HOLDOUT_FILE), "utf8"));
  assert.deepEqual([...main.errors, ...holdout.errors], []);
  assert.ok(main.lines.length >= 150, `${main.lines.length} gold units`);
  assert.equal(new Set(main.lines.map((l) => l.unit.id)).size, main.lines.length);
  const sessions = new Set(main.lines.map((l) => `${l.unit.trace.path}#${l.unit.sessionId}`));
  assert.ok(
    holdout.lines.every((l) => !sessions.has(`${l.unit.trace.path}#${l.unit.sessionId}`)),
    "held-out units come from other sessions",
  );
});

test("gold/judge-calibration.json is what the current judge gives over the gold set", async () => {
  const report = CalibrationReportSchema.parse(await computeCalibration());
  assert.deepEqual(report.stale, [], "every gold unit is judged");
  assert.deepEqual(report.holdout.stale, [], "every held-out unit is judged");
  assert.equal(report.judgeVersion, JUDGE_VERSION);
  const onDisk = JSON.parse(readFileSync(resolve(ROOT, CALIBRATION_FILE), "utf8"));
  assert.deepEqual(onDisk, JSON.parse(JSON.stringify(report)), "stale calibration: run npm run calibrate");
});

test("tracefold eval --calibrate reports the agreement on the gold units among the loaded traces", () => {
  const tau = resolve(TRACES_DIR, "tau_bench_traj/sierra-research__tau-bench/historical_trajectories/gpt-4o-airline.json");
  const run = spawnSync(
    process.execPath,
    [resolve(ROOT, "cli/bin.mjs"), "eval", tau, "--policies", "none", "--calibrate", resolve(ROOT, GOLD_FILE), "--json"],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(run.status, 0, run.stderr);
  const report = EvalReportSchema.parse(JSON.parse(run.stdout));
  const gold = parseGold(readFileSync(resolve(ROOT, GOLD_FILE), "utf8")).lines;
  const tauUnits = gold.filter((l) => l.unit.trace.path.includes("gpt-4o-airline")).length;
  assert.equal(report.calibration!.units, tauUnits);
  assert.equal(report.calibration!.stale.length, gold.length - tauUnits, "units of traces not loaded are stale, each with its reason");
  assert.ok(report.calibration!.stale.every((s) => /is not among the loaded traces/.test(s.reason)));
});

test("a malformed gold file is refused before anything is replayed (exit 2, the line named)", () => {
  const bad = resolve(ROOT, "package.json");
  const run = spawnSync(process.execPath, [resolve(ROOT, "cli/bin.mjs"), "eval", resolve(TRACES_DIR, "aider_chat_md"), "--calibrate", bad, "--json"], {
    encoding: "utf8",
  });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--calibrate .*package\.json: line 1: not JSON/);
});
