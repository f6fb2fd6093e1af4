import { CALLS, INPUT, type UsageAggregator } from "../assignment/aggregate";
import { clusterBootstrapTotals, reductionOfTotals } from "./cluster-bootstrap";
import type { Group } from "../usage/schema";

/** One point of a curve: mean input tokens per call per group, and the calls and accounts behind it. */
export interface HourPoint {
  /** Local hour of day (8 = 08:00–09:00). */
  hour: number;
  treatment: number | null;
  control: number | null;
  reductionPct: number | null;
  calls: Record<Group, number>;
  accounts: Record<Group, number>;
  /** Account-clustered bootstrap band (pooled curve only; null when a group is empty or bands are off). */
  ci95: [number, number] | null;
}

export interface DayCurve {
  /** Local date `YYYY-MM-DD`. */
  date: string;
  points: HourPoint[];
}

/**
 * The pooled hourly curve (all days of the window folded onto hours of day) and the day-by-day
 * curves, from the per-(account, hour) cells. `iterations: 0` skips the bands.
 */
export function hourlyPoints(agg: UsageAggregator, options: { seed: number; iterations: number }): { hourly: HourPoint[]; daily: DayCurve[] } {
  // hour of day → group → per-account [calls, input]
  const pooled = new Map<number, Record<Group, number[][]>>();
  // day*24+hour → group → [calls, input, accounts]
  const byDayHour = new Map<number, Record<Group, number[]>>();
  for (const account of agg.accounts.values()) {
    const perHour = new Map<number, number[]>();
    for (const [key, sums] of account.post) {
      const hour = key % 24;
      const v = perHour.get(hour) ?? [0, 0];
      v[0]! += sums[CALLS]!;
      v[1]! += sums[INPUT]!;
      perHour.set(hour, v);
      let d = byDayHour.get(key);
      if (!d) byDayHour.set(key, (d = { treatment: [0, 0, 0], control: [0, 0, 0] }));
      const g = d[account.group];
      g[0]! += sums[CALLS]!;
      g[1]! += sums[INPUT]!;
      g[2]! += 1;
    }
    for (const [hour, v] of perHour) {
      let arms = pooled.get(hour);
      if (!arms) pooled.set(hour, (arms = { treatment: [], control: [] }));
      arms[account.group].push(v);
    }
  }
  const hourly = [...pooled.keys()]
    .sort((a, b) => a - b)
    .map((hour, i) => {
      const arms = pooled.get(hour)!;
      const total = (g: Group) => arms[g].reduce((acc, u) => [acc[0]! + u[0]!, acc[1]! + u[1]!, acc[2]! + 1], [0, 0, 0]);
      const point = makePoint(hour, total("treatment"), total("control"));
      if (options.iterations > 0 && point.reductionPct !== null) {
        const band = clusterBootstrapTotals([arms.treatment, arms.control], reductionOfTotals, { seed: options.seed + i, iterations: options.iterations });
        point.ci95 = [band.low, band.high];
      }
      return point;
    });
  const days = new Map<number, HourPoint[]>();
  for (const key of [...byDayHour.keys()].sort((a, b) => a - b)) {
    const d = byDayHour.get(key)!;
    const day = Math.floor(key / 24);
    if (!days.has(day)) days.set(day, []);
    days.get(day)!.push(makePoint(key % 24, d.treatment, d.control));
  }
  const daily = [...days].map(([day, points]) => ({ date: new Date(day * 86_400_000).toISOString().slice(0, 10), points }));
  return { hourly, daily };
}

/** `t` and `c` are [calls, input tokens, accounts]. */
function makePoint(hour: number, t: number[], c: number[]): HourPoint {
  const mean = (v: number[]) => (v[0]! > 0 ? v[1]! / v[0]! : null);
  const tm = mean(t);
  const cm = mean(c);
  return {
    hour,
    treatment: tm,
    control: cm,
    reductionPct: tm !== null && cm !== null && cm > 0 ? 100 * (1 - tm / cm) : null,
    calls: { treatment: t[0]!, control: c[0]! },
    accounts: { treatment: t[2]!, control: c[2]! },
    ci95: null,
  };
}
