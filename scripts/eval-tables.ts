/**
 * Markdown tables for the README from `tracefold eval --json` outputs, so the published figures
 * are regenerated, not retyped:
 *
 *   npx tsx scripts/eval-tables.ts suite FILE.json [--policies a,b,…]   # own settings + matched to the reference
 *   npx tsx scripts/eval-tables.ts formats FILE.json [--policies a,b,…] # a row per format (from --by format)
 */
import { readFileSync } from "node:fs";
import { EvalReportSchema, type EvalReportContract } from "../lib/evaluation/aggregate/report-contract";

const DEFAULT = [
  "self-gc",
  "oldest-turn",
  "tool-prune",
  "tool-mask-prune",
  "hybrid",
  "last-n-observations",
  "discard-all",
  "offload-with-preview",
  "recent-token-fraction",
  "codex",
  "gemini-cli",
];

const [mode, file] = process.argv.slice(2);
const i = process.argv.indexOf("--policies");
const policies = i >= 0 ? process.argv[i + 1]!.split(",") : DEFAULT;
const report: EvalReportContract = EvalReportSchema.parse(JSON.parse(readFileSync(file!, "utf8")));
const f = (x: number | null | undefined, d = 1) => (x === null || x === undefined ? "–" : x.toFixed(d));
const ci = (c: [number, number] | null | undefined) => (c ? `[${f(c[0])}, ${f(c[1])}]` : "");
const signedDiff = (d: { diffPts: number; ci95: [number, number] } | undefined) => (d ? `${d.diffPts >= 0 ? "+" : ""}${f(d.diffPts)} ${ci(d.ci95)}` : "—");

if (mode === "suite") {
  const matched = report.matched;
  const m = new Map(matched?.policies.map((p) => [p.policy, p]) ?? []);
  const d = new Map(matched?.paired.filter((p) => p.metric === "visibleNoImpact").map((p) => [p.policy, p]) ?? []);
  const rows = [
    `| policy | prune % | net prune % | no-impact % | visible % | restores / cut | at ${matched?.reference ?? "—"}'s size: prune % | visible % | Δ visible (${matched?.reference ?? "ref"} − policy), pts | Δ visible where ${matched?.reference ?? "ref"} compacted and the views are the same size (±5% of the prefix), pts [cuts] |`,
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const id of policies) {
    const p = report.policies.find((x) => x.id === id);
    if (!p) continue;
    const q = m.get(id);
    const diff = d.get(id);
    rows.push(
      `| ${id} | ${f(p.prunePct)} | ${f(p.netPrunePct)} | ${f(p.noImpactPct)} ${ci(p.ci95)} | ${f(p.visibleNoImpactPct)} ${ci(p.visibleCi95)} | ${f(p.restoresPerCut, 2)} | ${f(q?.prunePct)} | ${f(q?.visibleNoImpactPct)} | ${signedDiff(diff)} | ${diff?.sizeMatched ? `${signedDiff(diff.sizeMatched)} [${diff.sizeMatched.pairs}]` : "—"} |`,
    );
  }
  console.log(rows.join("\n"));
} else if (mode === "formats") {
  const rows = [
    "| format | sessions | cuts | " + policies.map((p) => `${p}: prune / net / no-impact / visible`).join(" | ") + " |",
    "|---|---|---|" + policies.map(() => "---").join("|") + "|",
  ];
  for (const [format, group] of Object.entries(report.breakdown ?? {})) {
    const cells = policies.map((id) => {
      const p = group.policies.find((x) => x.id === id);
      return p ? `${f(p.prunePct)} / ${f(p.netPrunePct)} / ${f(p.noImpactPct)} / ${f(p.visibleNoImpactPct)}` : "–";
    });
    rows.push(`| ${format} | ${group.sessions} | ${group.cuts} | ${cells.join(" | ")} |`);
  }
  console.log(rows.join("\n"));
} else {
  console.error("usage: eval-tables.ts suite|formats FILE.json [--policies a,b]");
  process.exit(2);
}
