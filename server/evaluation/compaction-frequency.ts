import type { Db } from "../db/client";
import { EvalSettingsSchema, policyKey } from "./run-settings";

/**
 * Compaction frequency (seed 003, "Fixed-Interval triggers at the threshold by construction;
 * SelfCompact spreads them across the budget"): for each policy, where along the session's token
 * budget it actually compacted.
 *
 * Definition, from stored results only: a policy *fires* at a cut when it removed something
 * (pruneRate > 0). The budget axis is the share of the session's tokens already in the prefix at
 * the cut (`EvalResult.sessionShare`: the run's cut levels, 50/70/90% by default, and native compaction points), in
 * `buckets` equal bins (default 10). Within a replay cut the prefix always sits at the trigger level
 * of its window, so the fill of the window itself is the same for every cut and is not the axis.
 * Each bin reports fired cuts and judged cuts, so a policy that never fires shows zero bars.
 */
export interface FrequencyBin {
  /** Lower edge, percent of the session's tokens. */
  from: number;
  to: number;
  fired: number;
  cuts: number;
}

export interface PolicyFrequency {
  policy: string;
  bins: FrequencyBin[];
  fired: number;
  cuts: number;
}

export async function compactionFrequency(db: Db, runId: string, buckets = 10): Promise<PolicyFrequency[] | null> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { settings: true } });
  if (!run) return null;
  const settings = EvalSettingsSchema.safeParse(JSON.parse(run.settings));
  // Each policy at its own settings: a budgeted unit compacts because the harness told it to.
  const rows = await db.evalResult.findMany({ where: { runId, error: null, budget: null }, select: { policy: true, sessionShare: true, pruneRate: true } });
  const order = settings.success ? settings.data.policies.map(policyKey) : [...new Set(rows.map((r) => r.policy))].sort();
  const byPolicy = new Map(order.map((policy) => [policy, emptyBins(buckets)]));
  for (const row of rows) {
    let bins = byPolicy.get(row.policy);
    if (!bins) byPolicy.set(row.policy, (bins = emptyBins(buckets)));
    const bin = bins[Math.min(buckets - 1, Math.max(0, Math.floor(row.sessionShare * buckets)))]!;
    bin.cuts++;
    if (row.pruneRate > 0) bin.fired++;
  }
  return [...byPolicy.entries()].map(([policy, bins]) => ({
    policy,
    bins,
    fired: bins.reduce((n, b) => n + b.fired, 0),
    cuts: bins.reduce((n, b) => n + b.cuts, 0),
  }));
}

function emptyBins(buckets: number): FrequencyBin[] {
  return Array.from({ length: buckets }, (_, i) => ({ from: Math.round((100 * i) / buckets), to: Math.round((100 * (i + 1)) / buckets), fired: 0, cuts: 0 }));
}
