import { aggregateBy, bySession } from "@/lib/evaluation/aggregate/aggregate-by";
import type { EvaluationRecord } from "@/lib/evaluation/aggregate/aggregate";
import type { SuiteSession } from "@/lib/evaluation/runner/evaluate-suite";
import { sessionWorkload, WORKLOADS } from "@/lib/evaluation/suites/workload";
import { FORMAT_IDS } from "@/lib/trace/model";
import { contractPolicy, type ContractPolicy } from "./report";

/**
 * `tracefold eval --by workload|format`: the same per-policy rows per group of sessions (issue 4's
 * breakdowns). Added to the JSON as `breakdown` only when asked, so the contract without the flag
 * stays exactly the README's:
 *
 *   "breakdown":{"<group>":{"sessions","cuts","policies":[<the policies rows>]}}
 *
 * Groups are workloads (lib/evaluation/suites/workload: browser, shell, web, file, code, other, mixed, none) or
 * format ids, in that fixed order, listing only groups with judged cuts; `sessions` and `cuts`
 * count the group's sessions and (session, cut) pairs with at least one judged unit.
 */
export const BREAKDOWN_KEYS = ["workload", "format"] as const;
export type BreakdownKey = (typeof BREAKDOWN_KEYS)[number];

export interface ContractGroup {
  sessions: number;
  cuts: number;
  policies: ContractPolicy[];
}
export type ContractBreakdown = Record<string, ContractGroup>;

/** Each session's group label under `by`. */
export function groupLabels(sessions: readonly SuiteSession[], by: BreakdownKey): Map<string, string> {
  return new Map(sessions.map((s) => [s.session.id, by === "format" ? s.session.format : sessionWorkload(s.index).workload]));
}

export function contractBreakdown(
  records: readonly EvaluationRecord[],
  labels: ReadonlyMap<string, string>,
  by: BreakdownKey,
  policyOrder: readonly string[],
): ContractBreakdown {
  const order: readonly string[] = by === "format" ? FORMAT_IDS : WORKLOADS;
  const out: ContractBreakdown = {};
  for (const g of aggregateBy(records, bySession(labels), policyOrder, order))
    out[g.group] = { sessions: g.sessions, cuts: g.cuts, policies: g.policies.map(contractPolicy) };
  return out;
}

/** The grouped table for people: one block of policy rows per group, aligned across groups. */
export function formatBreakdown(breakdown: ContractBreakdown, by: BreakdownKey): string {
  const header = [by, "policy", "cuts", "prune %", "no-impact %", "95% CI"];
  const rows: string[][] = [];
  for (const [group, g] of Object.entries(breakdown)) {
    g.policies.forEach((p, i) => {
      rows.push([
        i === 0 ? `${group} (${g.sessions} sessions)` : "",
        p.id,
        String(p.cuts),
        p.prunePct.toFixed(1),
        p.n === 0 ? "–" : `${p.noImpactPct.toFixed(1)} (${p.noImpact}/${p.n})`,
        p.n === 0 ? "–" : `[${p.ci95[0].toFixed(1)}, ${p.ci95[1].toFixed(1)}]`,
      ]);
    });
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [`by ${by}:`, "", line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
