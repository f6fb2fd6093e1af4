/** Number formats of the rollout page, one place so tables and charts agree. */
export const int = (x: number) => x.toLocaleString("en-US");
export const pct = (x: number | null) => (x === null ? "—" : `${x.toFixed(1)}%`);
export const usd = (x: number) => `$${x.toFixed(x >= 100 ? 2 : 4)}`;
export const per100 = (x: number | null) => (x === null ? "—" : x.toFixed(2));

/** 100 × (1 − with / without) of a cost, or null when nothing was priced. */
export function costReductionPct(cost: { without: number; with: number } | null): number | null {
  if (!cost || cost.without <= 0) return null;
  return 100 * (1 - cost.with / cost.without);
}
