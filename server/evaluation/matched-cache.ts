import type { EvaluationRecord } from "@/lib/evaluation/aggregate/aggregate";
import { aggregateMatched, type MatchedComparison } from "@/lib/evaluation/aggregate/matched";

/**
 * aggregateMatched with its session bootstrap (2,000 replicates per policy and metric) costs about
 * a second for a run of the whole shared corpus at matched budgets, and the run page polls every
 * 1.5 s while a run executes. So the comparison is kept per run and recomputed only when the run's
 * stored units changed (`version`: done and failed counts, status) — and, while the run is still
 * going, at most every `RUNNING_REFRESH_MS`: in between the page shows the last one, whose `n`
 * per policy says how many cuts it covers. A finished run's comparison is computed once.
 */
export const RUNNING_REFRESH_MS = 10_000;
const KEPT_RUNS = 20;

interface Entry {
  version: string;
  at: number;
  value: MatchedComparison;
}

const kept = new Map<string, Entry>();

export function cachedMatched(
  runId: string,
  version: string,
  running: boolean,
  compute: () => { records: EvaluationRecord[]; reference: string; order: readonly string[] },
  now = Date.now(),
): MatchedComparison {
  const hit = kept.get(runId);
  if (hit && (hit.version === version || (running && now - hit.at < RUNNING_REFRESH_MS))) {
    kept.delete(runId);
    kept.set(runId, hit);
    return hit.value;
  }
  const { records, reference, order } = compute();
  const value = aggregateMatched(records, reference, order);
  kept.delete(runId);
  kept.set(runId, { version, at: now, value });
  if (kept.size > KEPT_RUNS) kept.delete(kept.keys().next().value!);
  return value;
}
