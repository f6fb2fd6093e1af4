import { aggregatePolicies, policyFigures, type EvaluationRecord, type PolicyFigures } from "./aggregate";
import { parseBudgetKey } from "../cuts/budget";

/**
 * Trade-off curves (issue 16): one point per policy and sweep budget — the same target share of
 * each prefix removed for every policy — so policies compare at equal pruning, not each at its
 * own operating point. A point's figures are `aggregatePolicies` over that budget's records.
 */
export type CurvePoint = {
  policy: string;
  /** The sweep's target share of the prefix removed, in percent. */
  budgetPct: number;
} & PolicyFigures;

/** Points ordered by policy (`policyOrder`, then by id) and budget ascending. */
export function aggregateCurves(records: Iterable<EvaluationRecord>, policyOrder: readonly string[] = []): CurvePoint[] {
  const byBudget = new Map<number, EvaluationRecord[]>();
  for (const record of records) {
    const budget = record.budget === undefined ? undefined : parseBudgetKey(record.budget);
    if (budget?.kind !== "sweep") continue;
    const list = byBudget.get(budget.pct);
    if (list) list.push(record);
    else byBudget.set(budget.pct, [record]);
  }
  const points: CurvePoint[] = [];
  for (const pct of [...byBudget.keys()].sort((a, b) => a - b)) {
    for (const p of aggregatePolicies(byBudget.get(pct)!, policyOrder)) {
      if (p.n === 0) continue;
      points.push({ policy: p.id, budgetPct: pct, ...policyFigures(p) });
    }
  }
  const order = new Map([...policyOrder].map((id, i) => [id, i]));
  const rank = (id: string) => order.get(id) ?? policyOrder.length;
  return points.sort((a, b) => rank(a.policy) - rank(b.policy) || a.policy.localeCompare(b.policy) || a.budgetPct - b.budgetPct);
}
