import type { Db } from "../db/client";
import { compactionFrequency, type PolicyFrequency } from "./compaction-frequency";
import { getRun, type EvalRunSummary } from "./get-run";
import { getRunAggregates, type RunAggregates } from "./get-run-aggregates";
import { readJudgeCalibration, type JudgeCalibration } from "./judge-calibration";

/**
 * Everything the run page shows and polls: the run, its aggregates so far, the frequency
 * histogram, and the calibration of the judge that produced the verdicts — the dependency judge's
 * checked-in report, or `llm` for a run judged by the LLM judge (never calibrated here).
 */
export interface RunView {
  run: EvalRunSummary;
  aggregates: RunAggregates;
  frequency: PolicyFrequency[];
  calibration: JudgeCalibration | { state: "llm" };
}

export async function getRunView(db: Db, runId: string, options: { calibrationFile?: string } = {}): Promise<RunView | null> {
  const run = await getRun(db, runId);
  if (!run) return null;
  const [aggregates, frequency, calibration] = await Promise.all([
    getRunAggregates(db, runId),
    compactionFrequency(db, runId),
    run.settings?.judge === "llm" ? Promise.resolve({ state: "llm" as const }) : readJudgeCalibration(options.calibrationFile),
  ]);
  return { run, aggregates: aggregates!, frequency: frequency!, calibration };
}

/** The JSON envelope of the evaluation route handlers. */
export type EvalApiResponse<T> = { ok: true; data: T } | { ok: false; code: string; message: string };
