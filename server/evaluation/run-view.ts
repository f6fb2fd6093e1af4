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
  /** Sessions of the run deleted since it was created (server/ingest/retention/): their stored results stay and count. */
  deletedSessions: number;
}

export async function getRunView(db: Db, runId: string, options: { calibrationFile?: string } = {}): Promise<RunView | null> {
  const run = await getRun(db, runId);
  if (!run) return null;
  const [aggregates, frequency, calibration, deletedSessions] = await Promise.all([
    getRunAggregates(db, runId),
    compactionFrequency(db, runId),
    run.settings?.judge === "llm" ? Promise.resolve({ state: "llm" as const }) : readJudgeCalibration(options.calibrationFile),
    countDeletedSessions(db, runId),
  ]);
  return { run, aggregates: aggregates!, frequency: frequency!, calibration, deletedSessions };
}

async function countDeletedSessions(db: Db, runId: string): Promise<number> {
  const row = await db.evalRun.findUnique({ where: { id: runId }, select: { sessionIds: true } });
  let ids: string[] = [];
  try {
    ids = (JSON.parse(row?.sessionIds ?? "[]") as unknown[]).filter((v): v is string => typeof v === "string");
  } catch {
    return 0;
  }
  if (ids.length === 0) return 0;
  const present = await db.traceSession.count({ where: { id: { in: ids } } });
  return ids.length - present;
}

/** The JSON envelope of the evaluation route handlers. */
export type EvalApiResponse<T> = { ok: true; data: T } | { ok: false; code: string; message: string };
