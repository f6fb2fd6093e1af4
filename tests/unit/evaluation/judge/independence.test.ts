import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

/**
 * Issue 16, "a judge independent of every policy, enforced mechanically": every module a judge
 * reaches — directly or through other modules, type imports included — lies inside an allow-list
 * of neutral modules: the judges themselves, the trace model, the view contract the harness
 * emits (`lib/compaction/projection/types`), token counting, statistics, the Table 7 category list and zod.
 * Nothing of lib/compaction/policies, lib/compaction/planner or lib/compaction/context (anchors, route hints, the object index).
 */
const ROOT = resolve(__dirname, "../../../..");
const JUDGE_DIRS = ["lib/evaluation/judge", "lib/evaluation/llm-judge"];
const ALLOWED = [
  /^lib\/eval\/judge\//,
  /^lib\/eval\/llm-judge\//,
  /^lib\/eval\/calibrate\.ts$/,
  /^lib\/trace\/model\.ts$/,
  /^lib\/projection\/types\.ts$/,
  /^lib\/tokens\//,
  /^lib\/stats\//,
  /^lib\/util\//,
  /^lib\/llm\/types\.ts$/,
  /^lib\/scenario\/failure-categories\.ts$/,
  /^lib\/scenario\/prng\.ts$/,
];
const ALLOWED_PACKAGES = new Set(["zod", "gpt-tokenizer/encoding/o200k_base", "gpt-tokenizer/encoding/cl100k_base"]);

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/g;

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(IMPORT_RE)].map((m) => m[1]!);
}

function resolveImport(from: string, spec: string): string {
  const base = spec.startsWith("@/") ? join(ROOT, spec.slice(2)) : resolve(join(ROOT, dirname(from)), spec);
  for (const candidate of [`${base}.ts`, join(base, "index.ts")]) if (existsSync(candidate)) return relative(ROOT, candidate);
  throw new Error(`${from}: cannot resolve ${spec}`);
}

function judgeFiles(): string[] {
  return JUDGE_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((n) => n.endsWith(".ts"))
      .map((n) => `${dir}/${n}`),
  );
}

/** Every (importer → module) edge reachable from the judges, with the chain that reached it. */
function reachable(): Map<string, string[]> {
  const chains = new Map<string, string[]>();
  const queue = judgeFiles().map((f) => [f]);
  for (const chain of queue) chains.set(chain[0]!, chain);
  while (queue.length > 0) {
    const chain = queue.shift()!;
    const file = chain.at(-1)!;
    for (const spec of importsOf(file)) {
      if (!spec.startsWith(".") && !spec.startsWith("@/")) {
        chains.set(`package:${spec}`, [...chain, spec]);
        continue;
      }
      const target = resolveImport(file, spec);
      if (chains.has(target)) continue;
      const next = [...chain, target];
      chains.set(target, next);
      queue.push(next);
    }
  }
  return chains;
}

test("the judges reach only neutral modules (no policy, planner, anchor or route-hint code)", () => {
  const offenders: string[] = [];
  for (const [module, chain] of reachable()) {
    if (module.startsWith("package:")) {
      if (!ALLOWED_PACKAGES.has(module.slice("package:".length))) offenders.push(chain.join(" → "));
    } else if (!ALLOWED.some((re) => re.test(module))) offenders.push(chain.join(" → "));
  }
  assert.deepEqual(offenders, [], `judge modules import outside the allow-list:\n${offenders.join("\n")}`);
});

test("the check catches a forbidden import (it can fail)", () => {
  assert.throws(() => resolveImport("lib/evaluation/judge/types.ts", "../../planner/nope"), /cannot resolve/);
  const planner = resolveImport("lib/evaluation/judge/types.ts", "../../planner/ids");
  assert.equal(
    ALLOWED.some((re) => re.test(planner)),
    false,
  );
  for (const spec of ["../../projection/route", "../../projection/pointers", "../../context/anchors", "../../policies/types"]) {
    const module = resolveImport("lib/evaluation/judge/types.ts", spec);
    assert.equal(
      ALLOWED.some((re) => re.test(module)),
      false,
      `${module} must not be allowed`,
    );
  }
});

test("no planner or policy file refers to the judge's rules", () => {
  const dirs = ["lib/compaction/planner", "lib/compaction/policies"];
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (name.isDirectory()) walk(`${dir}/${name.name}`);
      else if (name.name.endsWith(".ts")) files.push(`${dir}/${name.name}`);
    }
  };
  dirs.forEach(walk);
  const hits = files.filter((f) => /\bjudge\b|lib\/eval|routing\.ts|routeKeys|isRouted|\brouted\b|MIN_ROUTING/i.test(readFileSync(join(ROOT, f), "utf8")));
  assert.deepEqual(hits, [], `planner/policy files mention the judge: ${hits.join(", ")}`);
});
