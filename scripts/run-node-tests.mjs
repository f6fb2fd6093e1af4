#!/usr/bin/env node
// Runs the node:test suites under tests/<group>/ (unit | db) through tsx.
// Node 20's --test takes no globs, so the files are listed here.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const group = process.argv[2] ?? "unit";
const root = resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "tests", group);

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return collect(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

const files = collect(root).sort();
if (files.length === 0) {
  console.error(`no test files under ${root}`);
  process.exit(1);
}
// Test files named after the group run alone (`node scripts/run-node-tests.mjs unit tests/unit/cli/help.test.ts`);
// any other argument goes to node's test runner (`--test-name-pattern=…`).
const args = process.argv.slice(3);
const picked = args.filter((arg) => arg.endsWith(".test.ts")).map((arg) => resolve(arg));
const extra = args.filter((arg) => !arg.endsWith(".test.ts"));
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...extra, ...(picked.length > 0 ? picked : files)], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "test" },
});
process.exit(result.status ?? 1);
