import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { readJudgeCalibration } from "../../../../server/evaluation/judge-calibration";
import { failedRow, unitKeyParts } from "../../../../server/evaluation/result-rows";
import { EvalSettingsSchema, unitsPerCut } from "../../../../server/evaluation/run-settings";

const FIXTURE = resolve(__dirname, "../../fixtures/judge-calibration.json");
const BASE = { suite: { kind: "all" }, policies: [{ id: "none" }, { id: "self-gc" }], judge: "dependency" };

describe("unit keys with budgets", () => {
  test("the policy key and budget of own-settings, sweep and matched unit keys", () => {
    assert.deepEqual(unitKeyParts("cm1abc#250#self-gc"), { policy: "self-gc", budget: null });
    assert.deepEqual(unitKeyParts("cm1abc#250#oldest-turn#budget-40"), { policy: "oldest-turn", budget: "budget-40" });
    assert.deepEqual(unitKeyParts("cm1abc#250#oldest-turn#match-self-gc"), { policy: "oldest-turn", budget: "match-self-gc" });
    const failed = failedRow("cm1abc#7#tool-prune#budget-20", "cm1abc", 7, "share-50", 0.5, "boom");
    assert.deepEqual([failed.policy, failed.budget, failed.netPruneRate, failed.visibleNoImpact, failed.byKind], ["tool-prune", "budget-20", null, null, null]);
  });
});

describe("run settings: pointers, sweep, match", () => {
  test("defaults: semantic pointers, no sweep, no match; stored runs without them parse", () => {
    const s = EvalSettingsSchema.parse(BASE);
    assert.equal(s.pointers, "semantic");
    assert.equal(s.sweep, undefined);
    assert.equal(s.match, undefined);
    assert.equal(unitsPerCut(s), 2);
  });

  test("a sweep and a match multiply the units per cut", () => {
    const s = EvalSettingsSchema.parse({ ...BASE, pointers: "plain", sweep: [20, 40, 60], match: "self-gc" });
    assert.deepEqual([s.pointers, s.sweep, s.match], ["plain", [20, 40, 60], "self-gc"]);
    assert.equal(unitsPerCut(s), 2 * (1 + 3 + 1));
  });

  test("bad values are refused by field, percent in the message", () => {
    const bad = EvalSettingsSchema.safeParse({ ...BASE, pointers: "fancy", sweep: [20, 120] });
    assert.equal(bad.success, false);
    const fields = Object.fromEntries(bad.error!.issues.map((i) => [i.path.join("."), i.message]));
    assert.deepEqual(fields, { pointers: "pointers must be semantic or plain", "sweep.1": "a budget is at most 95%" });
    const match = EvalSettingsSchema.safeParse({ ...BASE, match: "oldest-turn" });
    assert.deepEqual(
      match.error!.issues.map((i) => [i.path.join("."), i.message]),
      [["match", "matched budgets: oldest-turn is not one of the chosen policies"]],
    );
    const key = EvalSettingsSchema.safeParse({ ...BASE, policies: [{ id: "none", key: "a#b" }] });
    assert.deepEqual(
      key.error!.issues.map((i) => i.message),
      ["a policy key cannot contain #"],
    );
  });
});

describe("readJudgeCalibration", () => {
  const dir = mkdtempSync(join(tmpdir(), "tracefold-calibration-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("the checked-in shape reads into the run page's figures", async () => {
    const c = await readJudgeCalibration(FIXTURE);
    assert.equal(c.state, "calibrated");
    if (c.state !== "calibrated") return;
    assert.deepEqual([c.judgeVersion, c.meetsGoal], ["fixture-1", true]);
    assert.deepEqual([c.holdout.units, c.holdout.stale, c.holdout.disagreements], [70, 0, 1], "the held-out set is shown first");
    assert.deepEqual(c.holdout.accuracy, { pct: 87.14, ci95: [77.33, 93.09] });
    assert.deepEqual([c.tuned.units, c.tuned.stale, c.tuned.disagreements], [150, 1, 2]);
    assert.deepEqual(c.tuned.kappa, { value: 0.769, ci95: [0.671, 0.867] });
    assert.deepEqual(c.tuned.binary.accuracy.pct, 92.67);
  });

  test("the report npm run calibrate checked in reads as calibrated", async () => {
    const c = await readJudgeCalibration(resolve(__dirname, "../../../gold/judge-calibration.json"));
    assert.equal(c.state, "calibrated", c.state === "invalid" ? c.message : "");
  });

  test("absent is not calibrated; a malformed report names the field at fault; the goal is checked", async () => {
    assert.deepEqual(await readJudgeCalibration(join(dir, "none.json")), { state: "absent" });
    const path = join(dir, "bad.json");
    writeFileSync(path, JSON.stringify({ judgeVersion: "x", units: 3 }));
    const bad = await readJudgeCalibration(path);
    assert.equal(bad.state, "invalid");
    assert.match(bad.state === "invalid" ? bad.message : "", /^the calibration report does not match its schema: \w+: /);
    writeFileSync(path, "{");
    assert.deepEqual(await readJudgeCalibration(path), { state: "invalid", message: "the calibration report is not valid JSON" });
    const low = JSON.parse((await import("node:fs")).readFileSync(FIXTURE, "utf8")) as { holdout: { kappa: { value: number } } };
    low.holdout.kappa.value = 0.05;
    writeFileSync(path, JSON.stringify(low));
    const below = await readJudgeCalibration(path);
    assert.equal(below.state === "calibrated" && below.meetsGoal, false);
  });
});

describe("trigger level (issue 17, item 5)", () => {
  test("percent in, percent in the message: 150 typed is refused as 150%, not as a share above 1", async () => {
    const { EvalSettingsSchema } = await import("../../../../server/evaluation/run-settings");
    const parsed = EvalSettingsSchema.safeParse({ suite: { kind: "all" }, policies: [{ id: "none" }], judge: "dependency", triggerLevel: 150 / 100 });
    assert.equal(parsed.success, false);
    const issue = !parsed.success ? parsed.error.issues.find((i) => i.path[0] === "triggerLevel") : undefined;
    assert.equal(issue?.message, "the trigger level is a percent of the window above 0 and at most 100, got 150%");
    assert.ok(EvalSettingsSchema.safeParse({ suite: { kind: "all" }, policies: [{ id: "none" }], judge: "dependency", triggerLevel: 0.9 }).success);
  });
});
