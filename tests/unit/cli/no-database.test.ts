import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { test } from "node:test";
import { TRACES_DIR } from "../../helpers/traces";

const ROOT = resolve(__dirname, "../../..");
const AIDER = `${TRACES_DIR}/aider_chat_md/AlexShchuka__mozgoslav/.aider.chat.history.md`;

/**
 * `tracefold` as a fresh clone has it after a plain `npm install`: Prisma's clients are not generated
 * (a hook makes every import of them fail). Only the database commands may need them (issue 18).
 */
function tracefoldWithoutPrisma(...args: string[]) {
  const run = spawnSync(
    process.execPath,
    ["--require", resolve(ROOT, "tests/helpers/deny-prisma.cjs"), "--import", "tsx", resolve(ROOT, "cli/main.ts"), ...args],
    {
      encoding: "utf8",
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: resolve(ROOT, "tsconfig.json"), DATABASE_URL: "file:/nonexistent/tracefold.db" },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test("--help lists every command without loading a command module", () => {
  const run = tracefoldWithoutPrisma("--help");
  assert.equal(run.code, 0, run.stderr);
  for (const command of ["inspect", "import", "policies", "compact", "eval", "backup", "storage", "review"])
    assert.match(run.stdout, new RegExp(`^  ${command} +\\S`, "m"));
});

test("inspect, policies, compact, eval and rollout run without the database client", () => {
  for (const args of [
    ["inspect", AIDER, "--json"],
    ["policies", "--json"],
    ["compact", AIDER, "--policy", "oldest-turn", "--json"],
    ["eval", AIDER, "--policies", "none", "--json"],
    ["rollout", AIDER, "--policies", "none,tool-prune", "--json"],
  ]) {
    const run = tracefoldWithoutPrisma(...args);
    assert.equal(run.code, 0, `${args[0]}: ${run.stderr}`);
    JSON.parse(run.stdout);
  }
});

test("a database command says how to generate the client, without a stack trace", () => {
  const run = tracefoldWithoutPrisma("import", AIDER);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^tracefold import: this command needs the database client, which is not generated yet: run `bash scripts\/prisma\.sh generate`/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});
