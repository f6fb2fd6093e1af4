import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { renderCommandHelp, type CommandSpec, type OptionSpec } from "@/cli/command-spec";
import * as usage from "@/cli/usage";
import { DEFAULT_CUT_LEVELS } from "@/lib/evaluation/cuts/cut-levels";
import { DEFAULT_POINTER_STYLE } from "@/lib/compaction/projection/pointers";

const ROOT = resolve(__dirname, "../../..");
const SPECS = Object.entries(usage).map(([exportName, spec]) => [exportName.replace(/Command$/, ""), spec as CommandSpec<Record<string, OptionSpec>>] as const);

/** The CLI as a fresh clone has it before Prisma's clients are generated: help must not need them. */
function tracefold(...args: string[]) {
  const run = spawnSync(
    process.execPath,
    ["--require", resolve(ROOT, "tests/helpers/deny-prisma.cjs"), "--import", "tsx", resolve(ROOT, "cli/main.ts"), ...args],
    {
      encoding: "utf8",
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: resolve(ROOT, "tsconfig.json"), DATABASE_URL: "file:/nonexistent/tracefold.db" },
    },
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test("every command's synopsis names exactly the options its parser accepts", () => {
  assert.equal(SPECS.length, 16);
  for (const [name, spec] of SPECS) {
    const inSynopsis = new Set([...spec.synopsis.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!));
    assert.deepEqual([...inSynopsis].sort(), Object.keys(spec.options).sort(), `${name}: synopsis and options differ`);
    for (const [flag, option] of Object.entries(spec.options)) assert.ok(option.help.length > 10, `${name} --${flag} has no help`);
  }
});

test("every command answers --help and -h with its usage and one line per option, loading no command module", () => {
  for (const [name, spec] of SPECS) {
    const command = name === "restore" ? "restore" : name;
    const run = tracefold(command, "--help");
    assert.equal(run.code, 0, `${command}: ${run.stderr}`);
    assert.equal(run.stdout.trimEnd(), renderCommandHelp(spec));
    for (const flag of Object.keys(spec.options)) assert.match(run.stdout, new RegExp(`^  --${flag}\\b.*\\S`, "m"), `${command} --help lacks --${flag}`);
    assert.match(run.stdout, /^exit codes: 0/m);
  }
  const short = tracefold("eval", "some-dir", "-h");
  assert.equal(short.code, 0, short.stderr);
  assert.match(short.stdout, /^usage: tracefold eval /);
});

test("the help's defaults are the defaults the commands use", () => {
  assert.equal(usage.evalCommand.options["cut-levels"].default, DEFAULT_CUT_LEVELS.join(","));
  assert.equal(usage.evalCommand.options.pointers.default, DEFAULT_POINTER_STYLE);
  assert.match(renderCommandHelp(usage.evalCommand), /--cut-levels P,P,\.\.\. +token shares .*\(default 50,70,90\)/);
  assert.match(renderCommandHelp(usage.onlineCommand), /--map field=column +.*\(repeatable\)/);
});

test("--version prints the package's version; a bad option points at --help", () => {
  const run = tracefold("--version");
  assert.equal(run.code, 0);
  assert.equal(run.stdout.trim(), (JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as { version: string }).version);
  const bad = tracefold("inspect", "--bogus");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^tracefold inspect: Unknown option '--bogus'/);
  assert.match(bad.stderr, /tracefold inspect --help lists every option/);
});
