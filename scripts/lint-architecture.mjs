#!/usr/bin/env node
// `npm run lint:arch`: the house rules of .dependency-cruiser.cjs over lib, server, components, app
// and cli. A violation fails unless it is listed in architecture-debt.json — the folder cycles that
// existed when the rules came in (issue 18), to be paid down. The list only shrinks: an entry that no
// longer occurs fails too, so fixing a cycle means deleting its line. dependency-cruiser's own
// baseline (--ignore-known) does not apply to folder-scope rules, hence this small wrapper.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const run = spawnSync(
  "npx",
  ["--no-install", "depcruise", "lib", "server", "components", "app", "cli", "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
  {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  },
);
if (!run.stdout) {
  console.error(`lint:arch: depcruise printed nothing\n${run.stderr}`);
  process.exit(1);
}
const { summary } = JSON.parse(run.stdout);
const keyOf = (v) => `${v.rule.name}: ${v.from} → ${v.to}`;
const found = new Map(summary.violations.map((v) => [keyOf(v), v]));
const debt = new Set(JSON.parse(readFileSync("architecture-debt.json", "utf8")).known);
const fresh = [...found.keys()].filter((key) => !debt.has(key));
const paid = [...debt].filter((key) => !found.has(key));
for (const key of fresh) {
  const v = found.get(key);
  const path = v.cycle ? ` (${[v.from, ...v.cycle.map((c) => c.name)].join(" → ")})` : "";
  console.error(`✗ ${key}${path}`);
}
for (const key of paid) console.error(`✗ ${key} is fixed: delete it from architecture-debt.json`);
const rules = summary.ruleSetUsed.forbidden.length;
if (fresh.length > 0 || paid.length > 0) {
  console.error(`lint:arch: ${fresh.length} new violation(s), ${paid.length} stale debt entr(ies); rules and reasons in .dependency-cruiser.cjs`);
  process.exit(1);
}
console.log(`lint:arch: ${summary.totalCruised} modules, ${rules} rules, no new violation (${debt.size} known folder cycles in architecture-debt.json)`);
