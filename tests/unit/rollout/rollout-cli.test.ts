import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { UsageError } from "@/cli/args";
import { parseRolloutArgs, runRollout } from "@/cli/commands/rollout";
import { TRACES_DIR } from "../../helpers/traces";

const BIN = resolve(__dirname, "../../../cli/bin.mjs");
const DIR = join(TRACES_DIR, "claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project");

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "rollout", ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("tracefold rollout --json prints the documented contract; none changes nothing; pooled figures add up the sessions'", () => {
  const r = run(DIR, "--policies", "none,tool-prune,oldest-turn", "--json");
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, 1, "one JSON object on stdout");
  const out = JSON.parse(lines[0]!);
  assert.deepEqual(Object.keys(out), ["trigger", "window", "hardLimit", "policies", "sessions"]);
  assert.equal(out.hardLimit, false, "off unless --hard-limit");
  const [none, prune, fold] = out.policies;
  for (const key of [
    "id",
    "calls",
    "inputTokens",
    "reductionPct",
    "cachedInputPct",
    "cost",
    "compactions",
    "overflowCalls",
    "hardLimitCommits",
    "restores",
    "restoredTokens",
    "lostStepsPer100",
    "lostByCategory",
    "drift",
  ])
    assert.ok(key in none, key);
  assert.deepEqual([none.id, prune.id, fold.id], ["none", "tool-prune", "oldest-turn"]);
  assert.deepEqual([none.reductionPct, none.lostStepsPer100, none.restores, none.compactions, none.inputTokens.with], [0, 0, 0, 0, none.inputTokens.without]);
  assert.equal(none.cost.with, none.cost.without, "Claude sessions are priced at their model's list price");
  assert.ok(prune.compactions > 0 && prune.reductionPct > 0);
  assert.equal(prune.restores, 0);
  for (const policy of out.policies) {
    const mine = out.sessions.map((s: { policies: { id: string; calls: number; restores: number; compactions: number; inputTokens: { with: number } }[] }) =>
      s.policies.find((p) => p.id === policy.id)!,
    );
    assert.equal(
      policy.calls,
      mine.reduce((a: number, p: { calls: number }) => a + p.calls, 0),
    );
    assert.equal(
      policy.restores,
      mine.reduce((a: number, p: { restores: number }) => a + p.restores, 0),
    );
    assert.equal(
      policy.inputTokens.with,
      mine.reduce((a: number, p: { inputTokens: { with: number } }) => a + p.inputTokens.with, 0),
    );
    assert.equal(
      policy.drift.reduce((a: number, d: { lost: number }) => a + d.lost, 0),
      Object.values(policy.lostByCategory as Record<string, number>).reduce((a, n) => a + n, 0),
      "every lost dependency has a round and a category",
    );
  }
  assert.ok(out.sessions.every((s: { file?: string; model: string | null }) => s.file?.startsWith(DIR)));
});

test("rollout refuses bad command lines naming the problem (exit 2); a missing input exits 1", async () => {
  const cases: [string[], RegExp][] = [
    [[DIR, "--policies", "nope"], /unknown policy "nope"/],
    [[DIR], /--policies all or a comma-separated list/],
    [[DIR, "--policies", "none", "--trigger", "150%"], /trigger as a share/],
    [[DIR, "--policies", "none", "--cache-ttl", "5"], /300s, 5m or 1h/],
    [[DIR, "--policies", "none", "--prices", "model=grok-3"], /no list price for model "grok-3"/],
    [[DIR, "--policies", "self-gc", "--param", "oldest-turn.keep=1"], /policy among --policies/],
    [[DIR, "--policies", "self-gc", "--param", "self-gc.noSuchParam=1"], /self-gc has no parameter noSuchParam/],
  ];
  for (const [args, pattern] of cases)
    assert.throws(
      () => parseRolloutArgs(args),
      (error: unknown) => error instanceof UsageError && pattern.test(error.message),
      args.join(" "),
    );
  const dir = mkdtempSync(join(tmpdir(), "rollout-prices-"));
  const file = join(dir, "prices.json");
  writeFileSync(file, JSON.stringify({ "claude-sonnet-4": { input: "3" } }));
  await assert.rejects(
    runRollout([DIR, "--policies", "none", "--prices", file]),
    (error: unknown) => error instanceof UsageError && /prices\.json: claude-sonnet-4\.input:/.test(error.message),
  );
  await assert.rejects(runRollout([DIR, "--policies", "none", "--prices", join(dir, "absent.json")]), /no such file/);

  const usage = run(DIR, "--policies", "nope");
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /unknown policy "nope"/);
  const missing = run(join(TRACES_DIR, "no-such-dir"), "--policies", "none", "--json");
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no such file or directory/);
  assert.equal(missing.stdout, "");
});
