/**
 * `recompute.mjs` of the reproduction package: plain Node ESM with no dependencies, run as
 * `node recompute.mjs` inside the extracted package. It recomputes every figure of aggregates.json
 * from the per-unit files with the arithmetic of lib/evaluation (aggregate.ts, curves.ts, matched.ts,
 * sensitivity.ts) over the units in file order, compares each figure, prints a table and exits 0
 * only when every figure matches:
 * - per policy at its own settings: prune % (mean of 1 − |C′|/|C|), token-weighted prune %, net
 *   prune % (mean of 1 − (|C′| + restore costs)/|C|), no-impact %, visible % and restorable % each
 *   with its Wilson 95% interval (z = 1.96), restores per cut, failures per category, failed units;
 *   judged sessions and cuts; the budget keys;
 * - the trade-off curves (the same figures per sweep budget);
 * - the matched comparison: each policy's figures at the reference's view size, and per policy and
 *   metric the paired difference (points), its percentile bootstrap interval over sessions
 *   (mulberry32 seeded with 16, 2,000 replicates, whole sessions resampled — lib/stats/bootstrap.ts)
 *   and McNemar's exact p, and the same over the cuts where the reference compacted and the two
 *   views are within 5% of the prefix of each other;
 * - judge sensitivity: each variant's rates, ranking and whether it holds.
 * Each unit's own figures are checked too: pruneRate and netPruneRate against its tokens, restores
 * and restore tokens against the sidecars its verdict names.
 * Kept as text (no template literals inside) so the package carries exactly what is tested.
 */
export const RECOMPUTE_SCRIPT = String.raw`#!/usr/bin/env node
// Recomputes aggregates.json from settings.json, judge-outputs.jsonl and token-estimates.jsonl. No dependencies.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const readJson = (name) => JSON.parse(readFileSync(join(here, name), "utf8"));
const readLines = (name) => readFileSync(join(here, name), "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));

const expected = readJson("aggregates.json");
const { settings } = readJson("settings.json");
const order = settings.policies.map((p) => p.key ?? p.id);
const judged = readLines("judge-outputs.jsonl");
const tokens = new Map(readLines("token-estimates.jsonl").map((t) => [t.unitKey, t]));
const round = (value) => Math.round(value * 100) / 100;
const problems = [];

// ---- statistics (lib/stats) ----
function wilson(x, n, z = 1.96) {
  const p = x / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [x === 0 ? 0 : Math.max(0, centre - half), x === n ? 1 : Math.min(1, centre + half)];
}
function rateWithInterval(k, n) {
  if (n === 0) return { pct: 0, ci95: [0, 0] };
  const [low, high] = wilson(k, n);
  return { pct: round((100 * k) / n), ci95: [round(100 * low), round(100 * high)] };
}
function logFactorials(m) {
  const out = new Float64Array(m + 1);
  for (let k = 2; k <= m; k++) out[k] = out[k - 1] + Math.log(k);
  return out;
}
function binomialCdf(k, m, p) {
  if (k < 0) return 0;
  if (k >= m) return 1;
  const lf = logFactorials(m);
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  const terms = [];
  for (let i = 0; i <= Math.floor(k); i++) terms.push(lf[m] - lf[i] - lf[m - i] + i * lp + (m - i) * lq);
  let max = -Infinity;
  for (const t of terms) if (t > max) max = t;
  let sum = 0;
  for (const t of terms) sum += Math.exp(t - max);
  return Math.min(1, Math.exp(max + Math.log(sum)));
}
const mcnemarP = (b, c) => (b + c === 0 ? 1 : Math.min(1, 2 * binomialCdf(Math.min(b, c), b + c, 0.5)));
function fmix32(value) {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
function mulberry32(seed) {
  let state = ((seed >>> 0) ^ fmix32(Math.floor(seed / 0x100000000))) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
  };
}
function quantileSorted(sorted, q) {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
const meanDifference = (pairs) => (pairs.length === 0 ? NaN : pairs.reduce((s, p) => s + (p.a - p.b), 0) / pairs.length);
function sessionBootstrap(pairs, seed, iterations) {
  const groups = new Map();
  for (const p of pairs) (groups.get(p.session) ?? groups.set(p.session, []).get(p.session)).push(p);
  const units = [...groups.values()];
  const next = mulberry32(seed);
  const replicates = [];
  for (let r = 0; r < iterations; r++) {
    const sample = [];
    for (let i = 0; i < units.length; i++) for (const item of units[Math.floor(next() * units.length)]) sample.push(item);
    const value = meanDifference(sample);
    if (Number.isFinite(value)) replicates.push(value);
  }
  const sorted = Float64Array.from(replicates).sort();
  return { estimate: meanDifference(pairs), low: quantileSorted(sorted, 0.025), high: quantileSorted(sorted, 0.975) };
}

// ---- the units ----
const records = [];
const failedBy = new Map();
for (const unit of judged) {
  const budget = unit.budget ?? null;
  if (unit.error !== null) {
    const key = budget + "|" + unit.policy;
    failedBy.set(key, (failedBy.get(key) ?? 0) + 1);
    continue;
  }
  const t = tokens.get(unit.unitKey);
  if (!t) {
    problems.push("no token estimate for " + unit.unitKey);
    continue;
  }
  const rate = t.prefixTokens > 0 ? 1 - t.tokensAfter / t.prefixTokens : 0;
  if (Math.abs(rate - t.pruneRate) > 1e-9) problems.push(unit.unitKey + ": pruneRate " + t.pruneRate + " is not 1 - " + t.tokensAfter + "/" + t.prefixTokens);
  const restores = unit.verdict && unit.verdict.evidence && unit.verdict.evidence.restores;
  if (t.netPruneRate !== null) {
    const cost = (restores ?? []).reduce((s, r) => s + r.cost, 0);
    if (!restores || t.restores !== restores.length || t.restoreTokens !== cost) problems.push(unit.unitKey + ": restores " + t.restores + " / " + t.restoreTokens + " tokens are not the " + (restores ?? []).length + " sidecars (" + cost + " tokens) its verdict names");
    const net = t.prefixTokens > 0 ? 1 - (t.tokensAfter + t.restoreTokens) / t.prefixTokens : 0;
    if (Math.abs(net - t.netPruneRate) > 1e-9) problems.push(unit.unitKey + ": netPruneRate " + t.netPruneRate + " is not 1 - (" + t.tokensAfter + " + " + t.restoreTokens + ")/" + t.prefixTokens);
  }
  records.push({
    policy: unit.policy, budget, sessionId: unit.sessionId, cut: unit.cut, prefixTokens: t.prefixTokens, tokensAfter: t.tokensAfter, pruneRate: t.pruneRate,
    netPruneRate: t.netPruneRate, restores: t.restores, noImpact: unit.noImpact, visibleNoImpact: unit.visibleNoImpact, restorableNoImpact: unit.restorableNoImpact,
    missingByCategory: unit.missingByCategory, byKind: unit.byKind,
  });
}
const at = (budget) => records.filter((r) => r.budget === budget);

// ---- aggregatePolicies (lib/evaluation/aggregate/aggregate.ts) ----
function aggregatePolicies(list) {
  const byPolicy = new Map(order.map((id) => [id, []]));
  for (const r of list) (byPolicy.get(r.policy) ?? byPolicy.set(r.policy, []).get(r.policy)).push(r);
  const known = new Set(order);
  const ids = [...order, ...[...byPolicy.keys()].filter((id) => !known.has(id)).sort()];
  return ids.map((id) => summarize(id, byPolicy.get(id)));
}
function summarize(id, rows) {
  let prune = 0, before = 0, after = 0, noImpact = 0, net = 0, netN = 0, visible = 0, restorable = 0, readings = 0, restores = 0;
  const failures = {};
  for (const r of rows) {
    prune += r.pruneRate;
    before += r.prefixTokens;
    after += r.tokensAfter;
    if (r.netPruneRate !== null) {
      net += r.netPruneRate;
      netN++;
      restores += r.restores ?? 0;
    }
    if (r.visibleNoImpact !== null && r.restorableNoImpact !== null) {
      readings++;
      if (r.visibleNoImpact) visible++;
      if (r.restorableNoImpact) restorable++;
    }
    if (r.noImpact) noImpact++;
    else for (const [category, count] of Object.entries(r.missingByCategory)) if (count > 0) failures[category] = (failures[category] ?? 0) + 1;
  }
  const cuts = rows.length;
  const hasReadings = readings > 0 && readings === cuts;
  const hasNet = netN > 0 && netN === cuts;
  const v = hasReadings ? rateWithInterval(visible, cuts) : null;
  const rr = hasReadings ? rateWithInterval(restorable, cuts) : null;
  return {
    id, cuts,
    prunePct: cuts === 0 ? 0 : round((100 * prune) / cuts),
    tokenPrunePct: before === 0 ? 0 : round(100 * (1 - after / before)),
    netPrunePct: hasNet ? round((100 * net) / cuts) : null,
    noImpactPct: cuts === 0 ? 0 : round((100 * noImpact) / cuts),
    noImpact, n: cuts,
    ci95: rateWithInterval(noImpact, cuts).ci95,
    visibleNoImpactPct: v ? v.pct : null, visibleCi95: v ? v.ci95 : null,
    restorableNoImpactPct: rr ? rr.pct : null, restorableCi95: rr ? rr.ci95 : null,
    restoresPerCut: hasNet ? round(restores / cuts) : null,
    failures,
  };
}
const point = (p) => ({ prunePct: p.prunePct, netPrunePct: p.netPrunePct, noImpactPct: p.noImpactPct, visibleNoImpactPct: p.visibleNoImpactPct, restorableNoImpactPct: p.restorableNoImpactPct, n: p.n, ci95: p.ci95 });

// ---- curves (lib/evaluation/aggregate/curves.ts) ----
function curves() {
  const levels = [...new Set(records.map((r) => /^budget-(\d+)$/.exec(r.budget ?? "")).filter(Boolean).map((m) => Number(m[1])))].sort((a, b) => a - b);
  const points = [];
  for (const pct of levels) for (const p of aggregatePolicies(at("budget-" + pct))) if (p.n > 0) points.push({ policy: p.id, budgetPct: pct, ...point(p) });
  const rank = (id) => (order.includes(id) ? order.indexOf(id) : order.length);
  return points.sort((a, b) => rank(a.policy) - rank(b.policy) || a.policy.localeCompare(b.policy) || a.budgetPct - b.budgetPct);
}

// ---- matched (lib/evaluation/aggregate/matched.ts) ----
function matched(reference) {
  const list = at("match-" + reference);
  const policies = aggregatePolicies(list).filter((p) => p.n > 0).map((p) => ({ policy: p.id, ...point(p) }));
  const byCut = new Map(list.filter((r) => r.policy === reference).map((r) => [r.sessionId + "#" + r.cut, r]));
  const paired = [];
  for (const p of policies) {
    if (p.policy === reference) continue;
    const own = list.filter((x) => x.policy === p.policy);
    // The cuts where the reference compacted and the two views are within 5% of the prefix of each other (SIZE_MATCH_TOLERANCE).
    const sameSize = own.filter((r) => {
      const ref = byCut.get(r.sessionId + "#" + r.cut);
      return ref !== undefined && ref.tokensAfter < ref.prefixTokens && Math.abs(r.tokensAfter - ref.tokensAfter) <= 0.05 * r.prefixTokens;
    });
    for (const metric of ["noImpact", "visibleNoImpact"]) {
      const diff = difference(own, byCut, metric);
      if (!diff) continue;
      paired.push({ policy: p.policy, metric, ...diff, sizeMatched: difference(sameSize, byCut, metric) ?? null });
    }
  }
  const failedUnits = {};
  for (const [key, n] of failedBy) if (key.startsWith("match-" + reference + "|")) failedUnits[key.slice(key.indexOf("|") + 1)] = n;
  return { reference, policies, paired, failedUnits };
}

function difference(records, byCut, metric) {
  const pairs = [];
  for (const r of records) {
    const ref = byCut.get(r.sessionId + "#" + r.cut);
    const a = ref ? ref[metric] : null;
    const b = r[metric];
    if (a === null || a === undefined || b === null || b === undefined) continue;
    pairs.push({ a: a ? 1 : 0, b: b ? 1 : 0, session: r.sessionId });
  }
  if (pairs.length === 0) return undefined;
  const boot = sessionBootstrap(pairs, 16, 2000);
  const onlyRef = pairs.filter((x) => x.a > x.b).length;
  const onlyPolicy = pairs.filter((x) => x.b > x.a).length;
  return { pairs: pairs.length, diffPts: round(100 * boot.estimate), ci95: [round(100 * boot.low), round(100 * boot.high)], mcnemarP: mcnemarP(onlyRef, onlyPolicy) };
}

// ---- judge sensitivity (lib/evaluation/aggregate/sensitivity.ts) ----
const KIND_GROUPS = [["no-numbers", "numbers not counted", ["number"]], ["no-identifiers", "code identifiers not counted", ["identifier"]], ["no-quoted", "quoted and verbatim text not counted", ["verbatim"]], ["no-constraints", "user constraints not counted", ["constraint"]], ["no-locators", "urls, paths and ids not counted", ["url", "path", "id"]]];
function sensitivity(list, label) {
  const rows = list.filter((r) => r.policy !== "none");
  if (rows.length === 0 || rows.some((r) => !r.byKind)) return undefined;
  const variants = [["headline", "the run's rule: nothing lost (visible or restorable)", (r) => r.noImpact], ["visible", "every dependency visible, no restore", (r) => r.visibleNoImpact ?? undefined], ["restorable", "nothing lost, restores allowed", (r) => r.restorableNoImpact ?? undefined]];
  for (const [name, description, kinds] of KIND_GROUPS) variants.push([name, description, (r) => Object.entries(r.byKind).every(([kind, c]) => kinds.includes(kind) || c.lost === 0)]);
  const computed = variants.map(([variant, description, verdict]) => {
    const tally = new Map();
    for (const r of rows) {
      const v = verdict(r);
      if (v === undefined) continue;
      const t = tally.get(r.policy) ?? { yes: 0, n: 0 };
      t.n++;
      if (v) t.yes++;
      tally.set(r.policy, t);
    }
    return { variant, description, rates: Object.fromEntries([...tally].map(([id, t]) => [id, round((100 * t.yes) / t.n)])) };
  });
  const rankingOf = (rates) => Object.keys(rates).sort((a, b) => rates[b] - rates[a] || a.localeCompare(b));
  const base = rankingOf(computed[0].rates);
  const out = computed.map(({ variant, description, rates }) => {
    const ranking = rankingOf(rates);
    const position = new Map(ranking.map((id, i) => [id, i]));
    const swaps = [];
    for (let i = 0; i < base.length; i++) for (let j = i + 1; j < base.length; j++) if (position.has(base[i]) && position.has(base[j]) && position.get(base[i]) > position.get(base[j])) swaps.push([base[i], base[j]]);
    const holds = ranking.length === base.length && ranking.every((id, i) => id === base[i]);
    return { variant, description, rates, ranking, holds, topHolds: ranking[0] === base[0], swaps };
  });
  return { records: label, holds: out.filter((v) => v.holds).length, of: out.length, variants: out };
}

// ---- compare ----
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
let checked = 0;
const check = (what, got, want) => {
  checked++;
  if (!same(got, want)) problems.push(what + ": recomputed " + JSON.stringify(got) + ", aggregates.json says " + JSON.stringify(want));
};
const own = at(null);
check("sessions", new Set(own.map((r) => r.sessionId)).size, expected.sessions);
check("cuts", new Set(own.map((r) => r.sessionId + "#" + r.cut)).size, expected.cuts);
const budgetRank = (key) => (/^budget-(\d+)$/.test(key) ? Number(key.slice(7)) : 1000);
const budgets = [...new Set(judged.map((u) => u.budget).filter((b) => b !== null && b !== undefined))].sort((a, b) => budgetRank(a) - budgetRank(b) || a.localeCompare(b));
check("budgets", budgets, expected.budgets);
const lines = [["policy", "n", "no-impact", "no-impact %", "Wilson 95%", "visible %", "restorable %", "prune %", "net prune %", "restores/cut", "failed units", "failures"]];
const fmt = (x) => (x === null ? "-" : x.toFixed(2));
for (const got of aggregatePolicies(own)) {
  const want = expected.policies.find((p) => p.id === got.id);
  if (!want) {
    problems.push("policy " + got.id + " has units but is not in aggregates.json");
    continue;
  }
  got.failedUnits = failedBy.get("null|" + got.id) ?? 0;
  for (const key of Object.keys(got)) check(got.id + "." + key, key === "failures" ? sorted(got[key]) : got[key], key === "failures" ? sorted(want[key]) : want[key]);
  const failures = Object.entries(got.failures).map(([c, k]) => c + " " + k).join(", ") || "-";
  lines.push([got.id, String(got.n), String(got.noImpact), got.noImpactPct.toFixed(2), got.ci95[0].toFixed(2) + "-" + got.ci95[1].toFixed(2), fmt(got.visibleNoImpactPct), fmt(got.restorableNoImpactPct), got.prunePct.toFixed(2), fmt(got.netPrunePct), fmt(got.restoresPerCut), String(got.failedUnits), failures]);
}
if (expected.policies.length !== aggregatePolicies(own).length) problems.push("aggregates.json lists " + expected.policies.length + " policies, the units " + aggregatePolicies(own).length);
const gotCurves = curves();
check("curves (" + gotCurves.length + " points)", gotCurves, expected.curves);
const reference = settings.match;
const gotMatched = reference === undefined ? null : matched(reference);
if (gotMatched && expected.matched) {
  check("matched.reference", gotMatched.reference, expected.matched.reference);
  for (const p of gotMatched.policies) check("matched." + p.policy, p, expected.matched.policies.find((x) => x.policy === p.policy));
  check("matched.policies (count)", gotMatched.policies.length, expected.matched.policies.length);
  for (const d of gotMatched.paired) check("matched." + d.policy + "." + d.metric + " (diff, bootstrap CI, McNemar p)", d, expected.matched.paired.find((x) => x.policy === d.policy && x.metric === d.metric));
  check("matched.paired (count)", gotMatched.paired.length, expected.matched.paired.length);
  check("matched.failedUnits", sorted(gotMatched.failedUnits), sorted(expected.matched.failedUnits));
} else check("matched", gotMatched, expected.matched);
const gotSensitivity = [sensitivity(own, "own"), ...(reference === undefined ? [] : [sensitivity(at("match-" + reference), "matched")])].filter(Boolean);
check("sensitivity", gotSensitivity, expected.sensitivity);

const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
for (const line of lines) console.log(line.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
if (gotCurves.length > 0) {
  console.log("");
  console.log("curves: " + gotCurves.map((p) => p.policy + "@" + p.budgetPct + "% " + p.noImpactPct.toFixed(2)).join(", "));
}
if (gotMatched) {
  console.log("");
  for (const d of gotMatched.paired) console.log("matched to " + reference + ": " + d.policy + " " + d.metric + " " + d.diffPts.toFixed(2) + " pts [" + d.ci95[0].toFixed(2) + ", " + d.ci95[1].toFixed(2) + "] McNemar p " + d.mcnemarP.toPrecision(3));
}
console.log("");
if (problems.length > 0) {
  for (const problem of problems) console.error("MISMATCH " + problem);
  console.error(problems.length + " problem(s) in " + checked + " checked figures");
  process.exit(1);
}
console.log("OK: all " + checked + " figures of aggregates.json match the recomputation from " + judged.length + " units");
`;
