import type { Db } from "../db/client";
import { compactionFrequency, type PolicyFrequency } from "./compaction-frequency";
import { getRun, type EvalRunSummary } from "./get-run";
import { getRunAggregates, type RunAggregates } from "./get-run-aggregates";

/** Everything the run page shows and polls: the run, its aggregates so far, the frequency histogram. */
export interface RunView {
  run: EvalRunSummary;
  aggregates: RunAggregates;
  frequency: PolicyFrequency[];
}

export async function getRunView(db: Db, runId: string): Promise<RunView | null> {
  const run = await getRun(db, runId);
  if (!run) return null;
  const [aggregates, frequency] = await Promise.all([getRunAggregates(db, runId), compactionFrequency(db, runId)]);
  return { run, aggregates: aggregates!, frequency: frequency! };
}

/** The JSON envelope of the evaluation route handlers. */
export type EvalApiResponse<T> = { ok: true; data: T } | { ok: false; code: string; message: string };
