import { spreadsheetSafe } from "../../util/spreadsheet-safe";
import type { OnlineReport } from "./estimate";
import type { HourPoint } from "./hourly";

const HEADER = [
  "scope",
  "hour",
  "treatment_mean_input",
  "control_mean_input",
  "reduction_pct",
  "ci95_low",
  "ci95_high",
  "treatment_calls",
  "control_calls",
  "treatment_accounts",
  "control_accounts",
];

const cell = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? "" : String(Math.round(x * 1e4) / 1e4));

/**
 * The hourly aggregates behind the studio's curves as CSV: the pooled curve (`scope` = `pooled`,
 * with its bootstrap band) then each local day (`scope` = the date; days carry no band). Hours are
 * local to the report's zone, written `HH:00`. Never contains a single call row — only sums. The
 * one text column is spreadsheet-safe (lib/util/spreadsheet-safe.ts).
 */
export function hourlyToCsv(report: OnlineReport): string {
  const line = (scope: string, p: HourPoint) =>
    [
      spreadsheetSafe(scope),
      `${String(p.hour).padStart(2, "0")}:00`,
      cell(p.treatment),
      cell(p.control),
      cell(p.reductionPct),
      cell(p.ci95?.[0]),
      cell(p.ci95?.[1]),
      p.calls.treatment,
      p.calls.control,
      p.accounts.treatment,
      p.accounts.control,
    ].join(",");
  const rows = [HEADER.join(","), ...report.hourly.map((p) => line("pooled", p))];
  for (const day of report.daily) for (const p of day.points) rows.push(line(day.date, p));
  return `${rows.join("\n")}\n`;
}
