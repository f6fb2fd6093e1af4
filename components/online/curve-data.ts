import type { HourPoint } from "@/lib/online/estimation/hourly";

/** One x position of the charts: the hour's means, reduction, band and the counts behind them. */
export interface CurveDatum {
  hour: string;
  treatment: number | null;
  control: number | null;
  reductionPct: number | null;
  band: [number, number] | null;
  calls: HourPoint["calls"];
  accounts: HourPoint["accounts"];
}

export function toCurveData(points: HourPoint[]): CurveDatum[] {
  return points.map((p) => ({
    hour: `${String(p.hour).padStart(2, "0")}:00`,
    treatment: p.treatment,
    control: p.control,
    reductionPct: p.reductionPct,
    band: p.ci95,
    calls: p.calls,
    accounts: p.accounts,
  }));
}

export const fmt = (x: number | null | undefined, digits = 0) =>
  x === null || x === undefined || !Number.isFinite(x) ? "—" : x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
