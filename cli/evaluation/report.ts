import type { PolicyAggregate } from "@/lib/evaluation/aggregate/aggregate";
import { FAILURE_CATEGORY_IDS } from "@/lib/scenario/failure-categories";
import type { McNemarResult } from "@/lib/stats/mcnemar";
import type { ContractPolicy, EvalReportContract } from "@/lib/evaluation/aggregate/report-contract";
import { formatUsageCost, LLM_USAGE_PURPOSES, totalUsage, USAGE_PURPOSE_LABELS, type LlmUsage, type PurposeUsage } from "@/lib/llm/usage";

/**
 * The `tracefold eval` outputs: the `--json` contract (lib/evaluation/aggregate/report-contract.ts, generated to
 * docs/eval-report.schema.json) and the human table. Both read the same `aggregatePolicies` rows
 * the studio shows.
 *
 * `failures` always lists the six Table 7 categories (zeros included, table order), then any other
 * bucket with a count (`uncategorized`: impacted cuts an LLM judge gave no category).
 * `comparison` is added only when `--compare A,B` asks for it, `breakdown` only with `--by`
 * (cli/evaluation/breakdown.ts), `curves` with `--sweep`, `matched` with `--match`, `sensitivity` with
 * `--sensitivity`, `calibration` with `--calibrate`, `llmUsage` with `--judge llm` or `--planner llm`.
 */
export type EvalReport = EvalReportContract;
export type { ContractPolicy };

export interface ContractComparison {
  a: string;
  b: string;
  /** Cuts where both policies were judged. */
  pairs: number;
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
  /** McNemar exact two-sided p-value and mid-p. */
  pValue: number;
  midP: number;
  /** No-impact rate of A minus B in points, with Newcombe's paired 95% interval. */
  diffPct: number | null;
  diffCi95: [number, number];
}

export function contractPolicy(row: PolicyAggregate): ContractPolicy {
  const failures: Record<string, number> = {};
  for (const id of FAILURE_CATEGORY_IDS) failures[id] = row.failures[id] ?? 0;
  for (const [id, count] of Object.entries(row.failures).sort(([a], [b]) => (a < b ? -1 : 1))) if (!(id in failures) && count > 0) failures[id] = count;
  return {
    id: row.id,
    cuts: row.cuts,
    prunePct: row.prunePct,
    netPrunePct: row.netPrunePct,
    noImpactPct: row.noImpactPct,
    noImpact: row.noImpact,
    n: row.n,
    ci95: row.ci95,
    visibleNoImpactPct: row.visibleNoImpactPct,
    visibleCi95: row.visibleCi95,
    restorableNoImpactPct: row.restorableNoImpactPct,
    restorableCi95: row.restorableCi95,
    restoresPerCut: row.restoresPerCut,
    failures,
  };
}

export function contractComparison(a: string, b: string, result: McNemarResult & { pairs: number }): ContractComparison {
  const diff = result.difference;
  // comparePolicies passes the concordant cells, so `difference` is there: rateA counts both + onlyA.
  const both = diff ? diff.rateA.successes - result.b : 0;
  const pct = (x: number) => Math.round(x * 10_000) / 100;
  return {
    a,
    b,
    pairs: result.pairs,
    both,
    onlyA: result.b,
    onlyB: result.c,
    neither: result.pairs - both - result.b - result.c,
    pValue: result.pValue,
    midP: result.midP,
    diffPct: diff && Number.isFinite(diff.diff) ? pct(diff.diff) : null,
    diffCi95: diff && Number.isFinite(diff.diff) ? [pct(diff.low), pct(diff.high)] : [-100, 100],
  };
}

const SHORT: Record<string, string> = {
  evidence_detail: "evid",
  locator_handle: "loc",
  behavioral_contract: "contract",
  verbatim_source: "verbatim",
  live_state: "live",
  recovery_routing: "routing",
  uncategorized: "uncat",
};

/** An aligned table for people: one row per policy, failures as short `label count` pairs. */
export function formatTable(report: EvalReport): string {
  const header = ["policy", "cuts", "prune %", "net prune %", "no-impact %", "95% CI", "visible %", "restores/cut", "failures (impacted cuts per category)"];
  const rows = report.policies.map((p) => [
    p.id,
    String(p.cuts),
    p.prunePct.toFixed(1),
    p.netPrunePct === null ? "–" : p.netPrunePct.toFixed(1),
    p.n === 0 ? "–" : `${p.noImpactPct.toFixed(1)} (${p.noImpact}/${p.n})`,
    `[${p.ci95[0].toFixed(1)}, ${p.ci95[1].toFixed(1)}]`,
    p.visibleNoImpactPct === null ? "–" : p.visibleNoImpactPct.toFixed(1),
    p.restoresPerCut === null ? "–" : p.restoresPerCut.toFixed(2),
    Object.entries(p.failures)
      .filter(([, n]) => n > 0)
      .map(([id, n]) => `${SHORT[id] ?? id} ${n}`)
      .join(", ") || "–",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const numeric = new Set([1, 2, 3, 4, 6, 7]);
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  const out = [
    `suite: ${report.suite.sessions} sessions, ${report.suite.cuts} replay cuts; judge: ${report.judge}; pointers: ${report.pointers}`,
    "",
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    "",
    `failures: ${Object.entries(SHORT)
      .map(([id, s]) => `${s} = ${id}`)
      .join(", ")}`,
  ];
  if (report.comparison) out.push("", formatComparison(report.comparison));
  return out.join("\n");
}

function formatComparison(c: ContractComparison): string {
  const diff =
    c.diffPct === null ? "–" : `${c.diffPct >= 0 ? "+" : ""}${c.diffPct.toFixed(1)} points [${c.diffCi95[0].toFixed(1)}, ${c.diffCi95[1].toFixed(1)}]`;
  return [
    `${c.a} vs ${c.b} on ${c.pairs} shared cuts: both no-impact ${c.both}, only ${c.a} ${c.onlyA}, only ${c.b} ${c.onlyB}, neither ${c.neither}`,
    `  no-impact difference ${diff}; McNemar exact p = ${c.pValue.toPrecision(3)} (mid-p ${c.midP.toPrecision(3)})`,
  ].join("\n");
}

/**
 * The model calls of the run per purpose, for people: the model, calls, provider-reported tokens
 * and cost (the run page's LLM usage table, with the same cost wording), then the total.
 */
export function formatUsage(usage: LlmUsage, modelFor: (purpose: (typeof LLM_USAGE_PURPOSES)[number]) => string): string {
  const entries = LLM_USAGE_PURPOSES.flatMap((purpose) => (usage[purpose] ? [[purpose, usage[purpose]] as const] : []));
  const int = (n: number) => Math.round(n).toLocaleString("en-US");
  const row = (label: string, model: string, e: PurposeUsage) => [
    label,
    model,
    int(e.calls),
    int(e.inputTokens),
    int(e.cachedInputTokens),
    int(e.outputTokens),
    formatUsageCost(e),
  ];
  const header = ["LLM usage", "model", "calls", "input tokens", "of which cached", "output tokens", "cost"];
  const rows = [
    ...entries.map(([purpose, e]) => row(USAGE_PURPOSE_LABELS[purpose] ?? purpose, modelFor(purpose), e)),
    row("Total", "", totalUsage(entries.map(([, e]) => e))),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const numeric = new Set([2, 3, 4, 5]);
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
