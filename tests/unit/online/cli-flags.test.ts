import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { generateUsageLogs } from "@/lib/online/simulation/generate-logs";
import { expectedGroups, inDefaultWindow, runOnlineCli as tracefold, writeUsageCsv } from "../../helpers/online-cli";

const dir = mkdtempSync(join(tmpdir(), "tracefold-online-flags-"));
const at = (iso: string) => Date.parse(iso);
/** Two days, the second day after a rollout at 2026-05-26T00:00Z (the first has no reduction yet). */
const rows = [...generateUsageLogs({ seed: 21, accounts: 80, days: 2, preDays: 1, start: "2026-05-25", trueReductionPct: 20 })];
const file = join(dir, "usage.csv");
writeUsageCsv(file, rows);
const ROLLOUT = "2026-05-26T00:00:00Z";

/** A number as the human table prints it (`1,234.5`, `-3.2`). */
const num = (text: string) => Number(text.replace(/,/g, ""));
const mean = (g: { calls: number; input: number }) => g.input / g.calls;

test("--prices reaches the billed cost: with one price for every prompt token, cost falls exactly as tokens do", () => {
  const json = JSON.parse(tracefold(file, "--json", "--iterations", "50").stdout);
  const flat = tracefold(file, "--prices", "input=3,cachedInput=3,cacheWrite=3,output=0", "--iterations", "50");
  assert.equal(flat.code, 0, flat.stderr);
  const perCall = [...flat.stdout.matchAll(/^\s+(treatment|control)\s.*\$([\d.]+)\/call$/gm)].map((m) => [m[1], num(m[2]!)] as const);
  assert.equal(perCall.length, 2);
  for (const [group, usd] of perCall) assert.ok(Math.abs(usd - (json.groups[group!].meanInputTokens * 3) / 1e6) < 0.00006, `${group} ${usd}`);
  const tokens = num(/^reduction (-?[\d.,]+)%/m.exec(flat.stdout)![1]!);
  const cost = (out: string) => num(/^billed cost per call: (-?[\d.,]+)% lower/m.exec(out)![1]!);
  assert.equal(cost(flat.stdout), tokens);
  // Default prices bill cache reads at a tenth: the cost change is no longer the token change.
  assert.notEqual(cost(tracefold(file, "--iterations", "50").stdout), tokens);
});

test("--volatile windows (repeatable) drop their calls from every figure and are counted", () => {
  const day2: [number, number] = [at("2026-05-26T00:00:00Z"), at("2026-05-27T00:00:00Z")];
  const noon: [number, number] = [at("2026-05-25T12:00:00Z"), at("2026-05-25T14:00:00Z")];
  const flagged = (t: number) => [day2, noon].some(([s, e]) => t >= s && t < e);
  const args = [
    "--volatile",
    "2026-05-26T00:00:00Z/2026-05-27T00:00:00Z",
    "--volatile",
    "2026-05-25T14:00:00+02:00/2026-05-25T16:00:00+02:00",
    "--iterations",
    "50",
  ];
  const run = tracefold(file, "--json", ...args);
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  const want = expectedGroups(rows, (r) => inDefaultWindow(r) && !flagged(r.timestamp));
  for (const g of ["treatment", "control"] as const) {
    assert.equal(out.groups[g].calls, want[g].calls);
    assert.equal(out.groups[g].accounts, want[g].accounts.size);
    assert.ok(Math.abs(out.groups[g].meanInputTokens - mean(want[g])) < 0.006);
  }
  assert.deepEqual(
    out.hourly.map((h: { hour: number }) => h.hour),
    [8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21],
  );
  const human = tracefold(file, ...args).stdout;
  assert.equal(num(/volatile ([\d,]+)/.exec(human)![1]!), rows.filter((r) => flagged(r.timestamp)).length);
});

test("--rollout: post-rollout calls make the estimate; the pre-period gives the difference-in-differences", () => {
  const rollout = at(ROLLOUT);
  const run = tracefold(file, "--json", "--rollout", ROLLOUT, "--iterations", "50");
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  const post = expectedGroups(rows, (r) => inDefaultWindow(r) && r.timestamp >= rollout);
  const pre = expectedGroups(rows, (r) => inDefaultWindow(r) && r.timestamp < rollout);
  assert.equal(out.groups.treatment.calls, post.treatment.calls);
  assert.equal(out.groups.control.calls, post.control.calls);
  assert.ok(Math.abs(out.reductionPct - 100 * (1 - mean(post.treatment) / mean(post.control))) < 0.006);

  const human = tracefold(file, "--rollout", ROLLOUT, "--iterations", "50").stdout;
  const m = /^pre-rollout difference (-?[\d.,]+)%; difference-in-differences (-?[\d.,]+)% \(95% CI (-?[\d.,]+) to (-?[\d.,]+)\)/m.exec(human);
  assert.ok(m, human);
  const preRatio = mean(pre.treatment) / mean(pre.control);
  assert.ok(Math.abs(num(m[1]!) - 100 * (1 - preRatio)) < 0.051, `pre ${m[1]}`);
  assert.ok(Math.abs(num(m[2]!) - 100 * (1 - mean(post.treatment) / mean(post.control) / preRatio)) < 0.051, `did ${m[2]}`);
  assert.ok(num(m[3]!) <= num(m[2]!) && num(m[2]!) <= num(m[4]!));
  assert.doesNotMatch(tracefold(file, "--iterations", "50").stdout, /difference-in-differences/);
});

test("bad --prices, --volatile and --rollout values exit 2 with the expected form", () => {
  const cases: [string[], RegExp][] = [
    [["--prices", "input=abc"], /expected prices as name=USD-per-million .*got "input=abc"/],
    [["--prices", "input=3,fast=1"], /with names input, cachedInput, cacheWrite, output; got "fast=1"/],
    [["--volatile", "2026-05-26T00:00:00Z"], /--volatile takes START\/END instants, got "2026-05-26T00:00:00Z"/],
    [["--volatile", "2026-05-27T00:00:00Z/2026-05-26T00:00:00Z"], /--volatile end must come after its start/],
    [["--volatile", "2026-05-26/2026-05-27T00:00:00Z"], /--volatile start must be an ISO-8601 instant with a zone/],
    [["--rollout", "2026-05-26T00:00:00"], /--rollout must be an ISO-8601 instant with a zone \(2026-05-29T18:00:00Z\), got "2026-05-26T00:00:00"/],
  ];
  for (const [args, message] of cases) {
    const run = tracefold(file, "--json", ...args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, "");
  }
});
