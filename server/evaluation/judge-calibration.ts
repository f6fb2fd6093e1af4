import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CalibrationReportSchema, type CalibrationReport } from "@/lib/evaluation/aggregate/report-contract";
import { processEnv } from "@/server/env";

/**
 * The dependency judge's checked-in calibration report (issue 16, item 6): `npm run calibrate`
 * judges every unit of the gold set (`gold/judge-gold.jsonl`, careful labels blind to the policy
 * and the judge) and of the held-out set no rule was chosen on (`gold/judge-holdout.jsonl`), and
 * writes `gold/judge-calibration.json` (lib/evaluation/aggregate/report-contract's CalibrationReportSchema: the
 * judge version, the first set's agreement and the held-out set's). The run page shows the held-out
 * agreement — the unbiased one — beside the no-impact figures, so every headline rate carries how
 * far the judge that produced it can be trusted.
 *
 * Read from `TRACEFOLD_JUDGE_CALIBRATION` (default `gold/judge-calibration.json` under the working
 * directory) on every call: a new report shows without a restart. A missing file is "not
 * calibrated yet"; a file that does not match the schema is reported with the field at fault.
 */
export const CalibrationFileSchema = CalibrationReportSchema;
export type CalibrationFile = CalibrationReport;

/** One gold set's figures as the run page shows them. */
export interface AgreementFigures {
  /** Gold units judged (stale ones left out, counted in `stale`). */
  units: number;
  stale: number;
  accuracy: { pct: number; ci95: [number, number] };
  kappa: { value: number; ci95: [number, number] };
  /** The headline's question: impact or not (restorable counts as no impact). */
  binary: { accuracy: { pct: number; ci95: [number, number] }; kappa: { value: number; ci95: [number, number] } };
  disagreements: number;
}

/** The issue's goal for the deterministic judge: ≥ 85% agreement and κ ≥ 0.6. */
export const CALIBRATION_GOAL = { accuracyPct: 85, kappa: 0.6 } as const;

export type JudgeCalibration =
  | {
      state: "calibrated";
      judgeVersion: string;
      /** The held-out set no rule was chosen on: the figure shown first. */
      holdout: AgreementFigures;
      /** The set the judge's rules were chosen with. */
      tuned: AgreementFigures;
      /** The held-out agreement meets the goal (≥ 85% on the three verdicts, κ ≥ 0.6). */
      meetsGoal: boolean;
    }
  | { state: "absent" }
  | { state: "invalid"; message: string };

export const DEFAULT_CALIBRATION_FILE = "gold/judge-calibration.json";

export function calibrationPath(): string {
  return resolve(processEnv().TRACEFOLD_JUDGE_CALIBRATION || DEFAULT_CALIBRATION_FILE);
}

export async function readJudgeCalibration(path = calibrationPath()): Promise<JudgeCalibration> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "absent" };
    return { state: "invalid", message: `the calibration report could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: "invalid", message: "the calibration report is not valid JSON" };
  }
  const parsed = CalibrationFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { state: "invalid", message: `the calibration report does not match its schema: ${issue.path.join(".") || "(top level)"}: ${issue.message}` };
  }
  const c = parsed.data;
  const holdout = figures(c.holdout);
  return {
    state: "calibrated",
    judgeVersion: c.judgeVersion,
    holdout,
    tuned: figures(c),
    meetsGoal: holdout.accuracy.pct >= CALIBRATION_GOAL.accuracyPct && holdout.kappa.value >= CALIBRATION_GOAL.kappa,
  };
}

function figures(c: CalibrationReport["holdout"]): AgreementFigures {
  return {
    units: c.units,
    stale: c.stale.length,
    accuracy: c.accuracy,
    kappa: c.kappa,
    binary: { accuracy: c.binary.accuracy, kappa: c.binary.kappa },
    disagreements: c.disagreements.length,
  };
}
