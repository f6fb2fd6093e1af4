/**
 * An axis zoomed to the data (issue 17, item 9: "the x axis stays 0–100% when every point is under
 * 40%"): the range of the values widened by a padding on each side, a minimum span so a single
 * point or a tight cluster is not blown up to the whole plot, rounded out to a "nice" tick step
 * (1, 2, 2.5 or 5 times a power of ten) that gives at most `maxTicks` ticks, and clamped to
 * [floor, ceil] (0–100 for percentages). A value on the floor or the ceiling (a 100% rate) would
 * sit on the plot's edge, half hidden: the domain then reaches a quarter step past it, the ticks
 * stay within [floor, ceil]. Pure and deterministic; the chart passes the domain and the ticks to
 * Recharts so the axis is exactly this.
 */
export interface AxisOptions {
  /** Share of the span added on each side (default 0.08). */
  padding?: number;
  /** Smallest span shown, in axis units (default 10). */
  minSpan?: number;
  floor?: number;
  ceil?: number;
  /** Most ticks wanted (default 8). */
  maxTicks?: number;
}

export interface Axis {
  domain: [number, number];
  ticks: number[];
}

export function zoomAxis(values: readonly number[], options: AxisOptions = {}): Axis {
  const floor = options.floor ?? 0;
  const ceil = options.ceil ?? 100;
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return withTicks(floor, ceil, options.maxTicks ?? 8, floor, ceil);
  const axis = zoomed(finite, options, floor, ceil);
  const step = axis.ticks.length > 1 ? axis.ticks[1]! - axis.ticks[0]! : 1;
  const [lo, hi] = axis.domain;
  const edge = (v: number) => finite.some((x) => Math.abs(x - v) < 1e-9);
  return { domain: [round6(edge(lo) ? lo - step / 4 : lo), round6(edge(hi) ? hi + step / 4 : hi)], ticks: axis.ticks };
}

function zoomed(finite: number[], options: AxisOptions, floor: number, ceil: number): Axis {
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  const minSpan = Math.min(options.minSpan ?? 10, ceil - floor);
  if (hi - lo < minSpan) {
    const mid = (lo + hi) / 2;
    lo = mid - minSpan / 2;
    hi = mid + minSpan / 2;
  }
  const pad = (hi - lo) * (options.padding ?? 0.08);
  lo = Math.max(floor, lo - pad);
  hi = Math.min(ceil, hi + pad);
  if (lo === floor && hi - lo < minSpan) hi = Math.min(ceil, floor + minSpan);
  if (hi === ceil && hi - lo < minSpan) lo = Math.max(floor, ceil - minSpan);
  return withTicks(lo, hi, options.maxTicks ?? 8, floor, ceil);
}

function withTicks(lo: number, hi: number, maxTicks: number, floor: number, ceil: number): Axis {
  let step = niceStep((hi - lo) / Math.max(1, maxTicks - 1));
  // Rounding out to the step can add a tick at each end: take the next nice step until they fit.
  while (Math.ceil(hi / step - 1e-9) - Math.floor(lo / step + 1e-9) + 1 > maxTicks) step = niceStep(step * 1.01);
  let start = Math.max(floor, Math.floor(lo / step + 1e-9) * step);
  let end = Math.min(ceil, Math.ceil(hi / step - 1e-9) * step);
  if (end <= start) end = Math.min(ceil, start + step);
  if (end <= start) start = Math.max(floor, end - step);
  const ticks: number[] = [];
  for (let t = start; t <= end + step / 1e6; t += step) ticks.push(Math.round(t * 1e6) / 1e6);
  return { domain: [round6(start), round6(end)], ticks };
}

/** The smallest of 1, 2, 2.5, 5 × 10^k at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw - 1e-12) return m * power;
  return 10 * power;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
