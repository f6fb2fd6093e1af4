import type { CurvePoint } from "@/lib/evaluation/aggregate/curves";
import type { PolicyAggregate } from "@/lib/evaluation/aggregate/aggregate";

/**
 * What the trade-off chart draws, from a run's aggregates: per policy, its point at its own
 * settings and, when the run swept budgets, its curve through the budget points in budget order.
 * The x axis is the pruning rate or the net pruning rate (after the future's restores); a point
 * without the chosen figure (net prune under an LLM judge) is left out. y is the headline
 * no-impact rate with its Wilson interval. Pure, so the chart and its tests share it.
 */
export type XMetric = "prune" | "net";

export interface ChartPoint {
  policy: string;
  /** Sweep budget (% of each prefix removed); absent for the own-settings point. */
  budgetPct?: number;
  x: number;
  y: number;
  /** Wilson 95% interval of y, in percent. */
  ci95: [number, number];
  /** Recharts ErrorBar offsets below and above y. */
  whisker: [number, number];
  n: number;
  /** The point's label on the chart: the policy id, or the budget (`40%`) on a curve. */
  label: string;
}

export interface PolicySeries {
  policy: string;
  own: ChartPoint | null;
  curve: ChartPoint[];
}

type Figures = Pick<PolicyAggregate, "prunePct" | "netPrunePct" | "noImpactPct" | "ci95" | "n">;

function toPoint(policy: string, f: Figures, x: XMetric, budgetPct?: number): ChartPoint | null {
  const value = x === "prune" ? f.prunePct : f.netPrunePct;
  if (value === null || f.n === 0) return null;
  return {
    policy,
    ...(budgetPct !== undefined ? { budgetPct } : {}),
    x: value,
    y: f.noImpactPct,
    ci95: f.ci95,
    whisker: [Math.max(0, f.noImpactPct - f.ci95[0]), Math.max(0, f.ci95[1] - f.noImpactPct)],
    n: f.n,
    label: budgetPct === undefined ? policy : `${budgetPct}%`,
  };
}

export function tradeoffSeries(policies: readonly (Figures & { id: string })[], curves: readonly CurvePoint[], x: XMetric): PolicySeries[] {
  const ids = [...policies.map((p) => p.id), ...curves.map((c) => c.policy).filter((id) => !policies.some((p) => p.id === id))];
  return [...new Set(ids)]
    .map((policy) => {
      const own = policies.find((p) => p.id === policy);
      const curve = curves
        .filter((c) => c.policy === policy)
        .sort((a, b) => a.budgetPct - b.budgetPct)
        .map((c) => toPoint(policy, c, x, c.budgetPct))
        .filter((p): p is ChartPoint => p !== null);
      return { policy, own: own ? toPoint(policy, own, x) : null, curve };
    })
    .filter((s) => s.own !== null || s.curve.length > 0);
}

/** Whether any figure exists for the net-prune axis (an LLM judge gives none). */
export function hasNetPrune(policies: readonly Pick<PolicyAggregate, "netPrunePct" | "n">[], curves: readonly Pick<CurvePoint, "netPrunePct">[]): boolean {
  return policies.some((p) => p.n > 0 && p.netPrunePct !== null) || curves.some((c) => c.netPrunePct !== null);
}

/** Every x and every y extent (interval ends included) of the series: what the axes zoom to. */
export function extents(series: readonly PolicySeries[]): { xs: number[]; ys: number[] } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of series) {
    for (const p of [...(s.own ? [s.own] : []), ...s.curve]) {
      xs.push(p.x);
      ys.push(p.ci95[0], p.ci95[1], p.y);
    }
  }
  return { xs, ys };
}
