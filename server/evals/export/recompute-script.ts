/**
 * `recompute.mjs` of the reproduction package: plain Node ESM with no dependencies, run as
 * `node recompute.mjs` inside the extracted package. It recomputes every aggregate of
 * aggregates.json from the per-unit files — prune % (mean of 1 − |C′|/|C| over judged cuts), the
 * token-weighted prune %, no-impact % with the Wilson 95% interval (z = 1.96), failures per
 * category (impacted cuts with at least one missing dependency of that category), failed units,
 * judged sessions and cuts — with the arithmetic of lib/eval/aggregate.ts over the units in file
 * order, compares each figure, prints a table and exits 0 only when every figure matches.
 * Kept as text (no template literals inside) so the package carries exactly what is tested.
 */
export const RECOMPUTE_SCRIPT = String.raw`#!/usr/bin/env node
// Recomputes aggregates.json from judge-outputs.jsonl and token-estimates.jsonl. No dependencies.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const readJson = (name) => JSON.parse(readFileSync(join(here, name), "utf8"));
const readLines = (name) => readFileSync(join(here, name), "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));

const expected = readJson("aggregates.json");
const judged = readLines("judge-outputs.jsonl");
const tokens = new Map(readLines("token-estimates.jsonl").map((t) => [t.unitKey, t]));
const round = (value) => Math.round(value * 100) / 100;

function wilson(x, n, z = 1.96) {
  if (n === 0) return [0, 1];
  const p = x / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [x === 0 ? 0 : Math.max(0, centre - half), x === n ? 1 : Math.min(1, centre + half)];
}

const problems = [];
const rows = new Map(expected.policies.map((p) => [p.id, { cuts: 0, prune: 0, before: 0, after: 0, noImpact: 0, failures: {}, failedUnits: 0 }]));
const judgedCuts = new Set();
const judgedSessions = new Set();
for (const unit of judged) {
  let row = rows.get(unit.policy);
  if (!row) rows.set(unit.policy, (row = { cuts: 0, prune: 0, before: 0, after: 0, noImpact: 0, failures: {}, failedUnits: 0 }));
  if (unit.error !== null) {
    row.failedUnits++;
    continue;
  }
  const t = tokens.get(unit.unitKey);
  if (!t) {
    problems.push("no token estimate for " + unit.unitKey);
    continue;
  }
  const rate = t.prefixTokens > 0 ? 1 - t.tokensAfter / t.prefixTokens : 0;
  if (Math.abs(rate - t.pruneRate) > 1e-9) problems.push(unit.unitKey + ": pruneRate " + t.pruneRate + " is not 1 - " + t.tokensAfter + "/" + t.prefixTokens);
  judgedCuts.add(unit.sessionId + "#" + unit.cut);
  judgedSessions.add(unit.sessionId);
  row.cuts++;
  row.prune += t.pruneRate;
  row.before += t.prefixTokens;
  row.after += t.tokensAfter;
  if (unit.noImpact) row.noImpact++;
  else for (const [category, count] of Object.entries(unit.missingByCategory)) if (count > 0) row.failures[category] = (row.failures[category] ?? 0) + 1;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
let checked = 0;
const check = (what, got, want) => {
  checked++;
  if (!same(got, want)) problems.push(what + ": recomputed " + JSON.stringify(got) + ", aggregates.json says " + JSON.stringify(want));
};
check("sessions", judgedSessions.size, expected.sessions);
check("cuts", judgedCuts.size, expected.cuts);
const lines = [["policy", "n", "no-impact", "no-impact %", "Wilson 95%", "prune %", "token prune %", "failed units", "failures"]];
for (const [id, row] of rows) {
  const want = expected.policies.find((p) => p.id === id);
  if (!want) {
    problems.push("policy " + id + " has units but is not in aggregates.json");
    continue;
  }
  const [low, high] = wilson(row.noImpact, row.cuts);
  const got = {
    cuts: row.cuts,
    n: row.cuts,
    noImpact: row.noImpact,
    noImpactPct: row.cuts === 0 ? 0 : round((100 * row.noImpact) / row.cuts),
    ci95: [round(100 * low), round(100 * high)],
    prunePct: row.cuts === 0 ? 0 : round((100 * row.prune) / row.cuts),
    tokenPrunePct: row.before === 0 ? 0 : round(100 * (1 - row.after / row.before)),
    failures: sorted(row.failures),
    failedUnits: row.failedUnits,
  };
  for (const key of Object.keys(got)) check(id + "." + key, got[key], key === "failures" ? sorted(want[key]) : want[key]);
  const failures = Object.entries(got.failures).map(([c, k]) => c + " " + k).join(", ") || "-";
  lines.push([id, String(got.n), String(got.noImpact), got.noImpactPct.toFixed(2), got.ci95[0].toFixed(2) + "-" + got.ci95[1].toFixed(2), got.prunePct.toFixed(2), got.tokenPrunePct.toFixed(2), String(got.failedUnits), failures]);
}
const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
for (const line of lines) console.log(line.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
console.log("");
if (problems.length > 0) {
  for (const problem of problems) console.error("MISMATCH " + problem);
  console.error(problems.length + " problem(s) in " + checked + " checked figures");
  process.exit(1);
}
console.log("OK: all " + checked + " figures of aggregates.json match the recomputation from " + judged.length + " units");
`;
