import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { z } from "zod";
import { generateUsageLogs } from "@/lib/online/simulation/generate-logs";
import { USAGE_CSV_HEADER, usageRowToCsv } from "@/lib/online/usage/write-csv";

const BIN = resolve(__dirname, "../../../cli/bin.mjs");
const num = z.number().finite();
const group = z.object({ calls: z.number().int().positive(), accounts: z.number().int().positive(), meanInputTokens: num }).strict();
const ContractSchema = z
  .object({
    groups: z.object({ treatment: group, control: group }).strict(),
    reductionPct: num,
    ci95: z.tuple([num, num]),
    peakReductionPct: num,
    hourly: z.array(
      z.object({ hour: z.number().int().min(0).max(23), treatment: num.nullable(), control: num.nullable(), reductionPct: num.nullable() }).strict(),
    ),
    assignment: z.object({ rule: z.string(), randomised: z.boolean() }).strict(),
  })
  .strict();

function tracefold(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, "online", ...args], { encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const dir = mkdtempSync(join(tmpdir(), "tracefold-online-"));
const file = join(dir, "usage.csv");
writeFileSync(
  file,
  [USAGE_CSV_HEADER, ...[...generateUsageLogs({ seed: 5, accounts: 120, days: 2, start: "2026-05-25", trueReductionPct: 15 })].map(usageRowToCsv)].join("\n") +
    "\n",
);

test("online --json prints exactly one JSON object with the contract's shape", () => {
  const run = tracefold(file, "--json", "--iterations", "300");
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim().split("\n").length, 1);
  const out = ContractSchema.parse(JSON.parse(run.stdout));
  assert.equal(out.assignment.randomised, false);
  assert.deepEqual(
    out.hourly.map((h) => h.hour),
    [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21],
  );
  assert.ok(out.ci95[0] <= out.reductionPct && out.reductionPct <= out.ci95[1]);
  const expected = 100 * (1 - out.groups.treatment.meanInputTokens / out.groups.control.meanInputTokens);
  assert.ok(Math.abs(out.reductionPct - expected) < 0.02);
});

test("window, zone, hash and column assignment change the result as asked", () => {
  const narrow = ContractSchema.parse(
    JSON.parse(tracefold(file, "--json", "--window", "10:00-12:00", "--tz", "Asia/Tokyo", "--assign", "hash:s1", "--iterations", "100").stdout),
  );
  assert.deepEqual(
    narrow.hourly.map((h) => h.hour),
    [10, 11],
  );
  assert.equal(narrow.assignment.randomised, true);
  const column = ContractSchema.parse(JSON.parse(tracefold(file, "--json", "--assign", "column:group", "--map", "surface=", "--iterations", "100").stdout));
  assert.equal(column.groups.treatment.accounts + column.groups.control.accounts, 120);
});

test("bad rows are located on stderr and give exit 1; bad flags exit 2", () => {
  const bad = join(dir, "bad.csv");
  writeFileSync(bad, "timestamp,account,inputTokens\n2026-05-25T10:00:00Z,olga@x,100\n2026-05-25T10:00:00Z,nina@x,lots\n2026-05-25T10:00:00Z,ann@x,120\n");
  const run = tracefold(bad, "--json", "--iterations", "50");
  assert.equal(run.code, 1);
  assert.match(run.stderr, /line 3, column inputTokens: expected a whole number of tokens ≥ 0, found lots/);
  ContractSchema.parse(JSON.parse(run.stdout));
  assert.equal(tracefold(file, "--tz", "Mars/Olympus").code, 2);
  assert.match(tracefold(file, "--map", "nope=x").stderr, /unknown usage field "nope"/);
});

test("the human table names the split and prints one row per hour", () => {
  const run = tracefold(file, "--iterations", "100");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /not randomised/);
  assert.equal(run.stdout.split("\n").filter((l) => /^\d\d:00 /.test(l)).length, 14);
});

/** Accounts split by the log's own group column (a salted hash), all named at or after "o": seed 000's pivot would put every one in treatment. */
const labelled = join(dir, "labelled.csv");
writeFileSync(
  labelled,
  [
    USAGE_CSV_HEADER,
    ...[...generateUsageLogs({ seed: 9, accounts: 60, days: 1, start: "2026-05-25", trueReductionPct: 15, rule: { kind: "hash", salt: "arm" } })].map((r) =>
      usageRowToCsv({ ...r, account: `u-${r.account}` }),
    ),
  ].join("\n") + "\n",
);

test("without --assign a log with a group column is split by it; a rule that empties a group is warned about and exits 1", () => {
  const run = tracefold(labelled, "--json", "--iterations", "100");
  assert.equal(run.code, 0, run.stderr);
  const out = ContractSchema.parse(JSON.parse(run.stdout));
  assert.equal(out.assignment.rule, 'group column "group"');
  assert.ok(out.groups.control.accounts > 10 && out.groups.treatment.accounts > 10);
  assert.equal(run.stderr, "");

  const pivot = tracefold(labelled, "--json", "--assign", "email-pivot:o", "--iterations", "100");
  assert.equal(pivot.code, 1);
  assert.match(
    pivot.stderr,
    /warning: The control group is empty: all [\d,]+ accounts \([\d,]+ calls\) fell in treatment under account e-mail first character ≥ "o"/,
  );
  assert.match(pivot.stderr, /assign by it \(column:group\)/);
  const json = JSON.parse(pivot.stdout) as { reductionPct: number | null; groups: { control: { calls: number } } };
  assert.equal(json.reductionPct, null);
  assert.equal(json.groups.control.calls, 0);
});
