import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { test } from "node:test";
import { checkEnvironment } from "@/server/config/check-environment";
import { TOOLING_VARIABLES, VARIABLES, variableOf } from "@/server/config/variables";

const ROOT = resolve(__dirname, "../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });
}

test("server/env.ts is the only reader of process.env in the app, the server, the CLI and lib", () => {
  const files = [...["app", "components", "server", "cli", "lib"].flatMap((dir) => sources(resolve(ROOT, dir))), resolve(ROOT, "proxy.ts")];
  const readers = files
    .filter((file) => /process\.env\b/.test(readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")))
    .map((file) => relative(ROOT, file));
  // cli/bin.mjs starts tsx with the caller's environment; it reads no setting.
  assert.deepEqual(readers.sort(), ["cli/bin.mjs", "server/env.ts"]);
  const instrumentation = readFileSync(resolve(ROOT, "instrumentation.ts"), "utf8");
  assert.deepEqual(
    [...instrumentation.matchAll(/process\.env\.(\w+)/g)].map((m) => m[1]),
    ["NEXT_RUNTIME"],
    "instrumentation.ts reads only Next's runtime marker",
  );
});

/** The user's documentation: the README and every page under docs/ (settings are in docs/configuration.md, the rest beside their feature). */
function documentation(): string {
  const docs = readdirSync(resolve(ROOT, "docs")).filter((name) => name.endsWith(".md"));
  return [readFileSync(resolve(ROOT, "README.md"), "utf8"), ...docs.map((name) => readFileSync(resolve(ROOT, "docs", name), "utf8"))].join("\n");
}

test("every setting is documented, and every variable the documentation names is a setting or tooling", () => {
  const readme = documentation();
  for (const variable of [...VARIABLES, ...TOOLING_VARIABLES]) {
    const mention = variable.name.endsWith("*") ? `\`${variable.name.slice(0, -1)}` : `\`${variable.name}\``;
    if (variable.name === "TRACEFOLD_TRACES_NEW_DIR") continue; // read by tests only; the README names the directory instead
    assert.ok(readme.includes(mention), `${variable.name} is not documented in README.md or docs/`);
  }
  const named = new Set([...readme.matchAll(/`((?:TRACEFOLD|NEXTAUTH)_[A-Z0-9_]*[A-Z0-9]|DATABASE_URL)`/g)].map((m) => m[1]!));
  const unknown = [...named].filter((name) => !variableOf(name) && !TOOLING_VARIABLES.some((v) => v.name === name));
  assert.deepEqual(unknown, [], "the documentation names variables no code reads");
});

test("the start-up check names every bad setting at once, never echoing a secret", () => {
  assert.deepEqual(checkEnvironment({}), []);
  assert.deepEqual(
    checkEnvironment({
      TRACEFOLD_MAX_UPLOAD_MB: "64",
      TRACEFOLD_TEMP_SWEEP_MS: "0",
      DATABASE_URL: "postgresql://db/tracefold",
      TRACEFOLD_INPROCESS_WORKER: "1",
    }),
    [],
  );
  const problems = checkEnvironment({
    TRACEFOLD_MAX_UPLOAD_MB: "lots",
    TRACEFOLD_LLM_CONCURRENCY: "100",
    DATABASE_URL: "mysql://user:hunter2@db/x",
    TRACEFOLD_STORAGE: "s3",
    TRACEFOLD_LLM_JUDGE_PROVIDER: "nonesuch",
  });
  assert.equal(problems.length, 5, problems.join("\n"));
  assert.match(problems[0]!, /^DATABASE_URL must start with file: or postgresql:\/\/$/);
  assert.ok(problems.some((p) => p === 'TRACEFOLD_MAX_UPLOAD_MB must be a number, got "lots"'));
  assert.ok(problems.some((p) => p === 'TRACEFOLD_LLM_CONCURRENCY must be from 1 to 64, got "100"'));
  assert.ok(problems.some((p) => /TRACEFOLD_S3_BUCKET: required when TRACEFOLD_STORAGE=s3/.test(p)));
  assert.ok(problems.some((p) => /TRACEFOLD_LLM_JUDGE_PROVIDER/.test(p)));
  assert.ok(problems.every((p) => !p.includes("hunter2")));
});
