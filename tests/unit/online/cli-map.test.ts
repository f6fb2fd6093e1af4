import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { generateUsageLogs } from "@/lib/online/simulation/generate-logs";
import { runOnlineCli as tracefold, writeUsageCsv } from "../../helpers/online-cli";

const dir = mkdtempSync(join(tmpdir(), "tracefold-online-map-"));
const rows = [...generateUsageLogs({ seed: 9, accounts: 60, days: 1, start: "2026-05-25", trueReductionPct: 15 })];
const canonical = join(dir, "canonical.csv");
writeUsageCsv(canonical, rows);

/** The same calls under headers no alias matches (except `arm`, a known group alias). */
const renamed = join(dir, "renamed.csv");
writeFileSync(
  renamed,
  [
    "when,who,arm,n_in,n_cached,n_out",
    ...rows.map((r) => [new Date(r.timestamp).toISOString(), r.account, r.group, r.inputTokens, r.cachedInputTokens, r.outputTokens].join(",")),
  ].join("\n") + "\n",
);

/** And as JSONL with nested objects, mapped by dotted paths. */
const nested = join(dir, "nested.jsonl");
writeFileSync(
  nested,
  rows
    .map((r) =>
      JSON.stringify({ t: new Date(r.timestamp).toISOString(), who: { mail: r.account }, usage: { prompt: r.inputTokens, hit: r.cachedInputTokens } }),
    )
    .join("\n") + "\n",
);

const MAP = [
  "--map",
  "timestamp=when",
  "--map",
  "account=who",
  "--map",
  "inputTokens=n_in",
  "--map",
  "cachedInputTokens=n_cached",
  "--map",
  "outputTokens=n_out",
];
const json = (...args: string[]) => {
  const run = tracefold(...args, "--json", "--iterations", "100");
  assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
  return JSON.parse(run.stdout);
};

test("--map field=column reads a log whose headers Tracefold cannot guess, with the same result", () => {
  const unmapped = tracefold(renamed, "--json");
  assert.equal(unmapped.code, 2);
  assert.match(
    unmapped.stderr,
    /no column mapped to timestamp, account, inputTokens \(columns: when, who, arm, n_in, n_cached, n_out\); map it with field=column/,
  );
  const expected = json(canonical);
  assert.match(expected.assignment.rule, /group column "group"/);
  // The guessed group column (`arm`) is the default split, as `group` is in the canonical file.
  const byColumn = json(renamed, ...MAP);
  assert.deepEqual({ ...byColumn, assignment: null }, { ...expected, assignment: null });
  assert.match(byColumn.assignment.rule, /group column "arm"/);
  // The generator labelled the groups by the e-mail rule, so asking for it gives the same split.
  const byPivot = json(renamed, ...MAP, "--assign", "email-pivot:o");
  assert.deepEqual({ ...byPivot, assignment: null }, { ...expected, assignment: null });
});

test("--map takes dotted paths into nested JSONL objects", () => {
  const run = tracefold(
    nested,
    "--json",
    "--map",
    "timestamp=t",
    "--map",
    "account=who.mail",
    "--map",
    "inputTokens=usage.prompt",
    "--map",
    "cachedInputTokens=usage.hit",
    "--iterations",
    "100",
  );
  assert.equal(run.code, 0, run.stderr);
  // No group column here: the default is the e-mail pivot.
  assert.deepEqual(JSON.parse(run.stdout), json(canonical, "--assign", "email-pivot:o"));
});

test("bad --map values exit 2 and say what is wrong", () => {
  const cases: [string[], RegExp][] = [
    [["--map", "inputTokens=nope"], /mapped column\(s\) "nope" not in the header \(timestamp, account, group/],
    [["--map", "=inputTokens"], /--map takes field=column, got "=inputTokens"/],
    [["--map", "tokens=inputTokens"], /unknown usage field "tokens": expected one of timestamp, account, group/],
  ];
  for (const [args, message] of cases) {
    const run = tracefold(canonical, "--json", ...args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, "");
  }
});
