import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { TRACES_DIR } from "../../helpers/traces";

const BIN = resolve(__dirname, "../../../cli/bin.mjs");
const FILE = join(
  TRACES_DIR,
  "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
);

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "simulate", ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("tracefold simulate --json prints one object with per-session and pooled figures, cost only with --prices", () => {
  const r = run(FILE, "--policy", "tool-prune", "--window", "900", "--trigger", "0.9", "--prices", "input=3", "--json");
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, 1);
  const out = JSON.parse(lines[0]!);
  assert.deepEqual(Object.keys(out), ["policy", "trigger", "window", "sessions", "pooled"]);
  assert.equal(out.window, 900);
  assert.deepEqual(Object.keys(out.pooled), [
    "sessions",
    "calls",
    "meanInputTokens",
    "reductionPct",
    "compactions",
    "cacheBreaks",
    "cacheBreakTokens",
    "lostSteps",
    "lostStepsPer100",
    "restores",
    "cost",
  ]);
  assert.equal(out.sessions[0].file, FILE);
  assert.equal(out.sessions[0].window, 900);
  assert.equal(
    out.pooled.calls,
    out.sessions.reduce((a: number, s: { calls: number }) => a + s.calls, 0),
  );
  assert.ok(out.pooled.compactions >= 1, JSON.stringify(out.pooled));
});

test("bad command lines exit 2 naming the problem; a missing input exits 1", () => {
  const trigger = run(FILE, "--policy", "tool-prune", "--trigger", "150%");
  assert.equal(trigger.code, 2);
  assert.match(trigger.stderr, /trigger as a share of the window/);
  const policy = run(FILE, "--policy", "no-such-policy");
  assert.equal(policy.code, 2);
  assert.match(policy.stderr, /--policy must be one of none, /);
  const missing = run(join(TRACES_DIR, "no-such-dir"), "--policy", "none", "--json");
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no such file or directory/);
  assert.equal(missing.stdout, "");
});
