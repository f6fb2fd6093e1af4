"use client";

import { useEffect, useRef, useState } from "react";
import { CartesianGrid, ErrorBar, Scatter, ScatterChart, Tooltip, XAxis, YAxis, type ScatterPointItem } from "recharts";
import type { CurvePoint } from "@/lib/evaluation/aggregate/curves";
import { zoomAxis } from "./chart-domain";
import type { RunView } from "./eval-types";
import { policyStyles } from "./policy-style";
import { PolicyLegend, PointTooltip } from "./tradeoff-parts";
import { TradeoffLabels } from "./tradeoff-labels";
import { extents, hasNetPrune, tradeoffSeries, type ChartPoint, type XMetric } from "./tradeoff-series";

type Aggregate = RunView["aggregates"]["policies"][number];

const HEIGHT = 380;
const MARGIN = { top: 16, right: 24, bottom: 32, left: 8 };
const X_LABEL: Record<XMetric, string> = { prune: "Pruning rate", net: "Net pruning rate (after restores)" };

/**
 * Seed 000 Figure 4, with matched budgets: the x axis is the pruning rate or the net pruning rate
 * (a switch), the y axis the headline no-impact rate with its Wilson 95% interval as whiskers. Each
 * policy has a colour and a shape (legend below): its own-settings point is a large marker in its
 * shape, and when the run swept budgets a line joins its budget points, each labelled by budget.
 * Axes zoom to the data. Hovering a point, a curve or a legend entry highlights that policy here and
 * in the results table (and hovering the table's row highlights it here); clicking opens its cuts —
 * at that budget for a curve point. The tooltip names the policy and its figures.
 */
export function TradeoffChart({
  policies,
  curves,
  order,
  highlighted,
  onHover,
  onSelect,
}: {
  policies: Aggregate[];
  curves: CurvePoint[];
  order: string[];
  highlighted: string | null;
  onHover: (policy: string | null) => void;
  onSelect: (policy: string, budget: string | null) => void;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [metric, setMetric] = useState<XMetric>("prune");
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.getBoundingClientRect().width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const netAvailable = hasNetPrune(policies, curves);
  const x = netAvailable ? metric : "prune";
  const series = tradeoffSeries(policies, curves, x);
  if (series.length === 0) return <p className="faint">No judged cuts yet.</p>;
  const styles = policyStyles([...order, ...series.map((s) => s.policy).filter((id) => !order.includes(id))]);
  const { xs, ys } = extents(series);
  const xAxis = zoomAxis(xs);
  const yAxis = zoomAxis(ys);
  const dim = (policy: string) => highlighted !== null && highlighted !== policy;
  const hover = (policy: string) => ({ onMouseEnter: () => onHover(policy), onMouseLeave: () => onHover(null) });
  return (
    <figure
      aria-label={`Trade-off chart: ${X_LABEL[x].toLowerCase()} against no-impact rate`}
      data-testid="tradeoff-chart"
      data-x-axis={x}
      style={{ margin: 0 }}
    >
      <div className="chart-toolbar">
        <span className="faint">x axis</span>
        <div className="segmented" role="group" aria-label="X axis">
          <button type="button" aria-pressed={x === "prune"} onClick={() => setMetric("prune")}>
            Prune
          </button>
          <button
            type="button"
            aria-pressed={x === "net"}
            onClick={() => setMetric("net")}
            disabled={!netAvailable}
            title={netAvailable ? "Pruning after the future restores what it needs" : "The LLM judge names no restores: no net prune"}
          >
            Net prune
          </button>
        </div>
        {curves.length > 0 ? (
          <span className="faint">Lines: each policy at the swept budgets (% of each prefix removed); large markers: its own settings.</span>
        ) : null}
      </div>
      <div ref={frame} style={{ width: "100%", height: HEIGHT }}>
        {width > 0 ? (
          <ScatterChart width={width} height={HEIGHT} margin={MARGIN}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="x"
              name={X_LABEL[x]}
              domain={xAxis.domain}
              ticks={xAxis.ticks}
              allowDataOverflow
              tickFormatter={(v: number) => `${v}%`}
              height={30}
              label={{ value: `${X_LABEL[x]} (%)`, position: "bottom" }}
            />
            <YAxis
              type="number"
              dataKey="y"
              name="No-impact rate"
              domain={yAxis.domain}
              ticks={yAxis.ticks}
              allowDataOverflow
              tickFormatter={(v: number) => `${v}%`}
              width={60}
              label={{ value: "No-impact rate (%)", angle: -90, position: "insideLeft" }}
            />
            <Tooltip content={<PointTooltip xLabel={X_LABEL[x]} />} cursor={{ strokeDasharray: "3 3" }} isAnimationActive={false} />
            {series.map((s) =>
              s.curve.length === 0 ? null : (
                <Scatter
                  key={`${s.policy}-curve`}
                  name={`${s.policy} curve`}
                  data={s.curve}
                  line={{ stroke: styles.get(s.policy)!.color, strokeWidth: highlighted === s.policy ? 3 : 1.5, strokeOpacity: dim(s.policy) ? 0.2 : 1 }}
                  lineType="joint"
                  shape={(props: { cx?: number; cy?: number }) => (
                    <circle
                      cx={props.cx}
                      cy={props.cy}
                      r={3.5}
                      fill={styles.get(s.policy)!.color}
                      fillOpacity={dim(s.policy) ? 0.2 : 1}
                      data-testid="tradeoff-curve-point"
                      data-policy={s.policy}
                    />
                  )}
                  cursor="pointer"
                  isAnimationActive={false}
                  {...hover(s.policy)}
                  onClick={(item: ScatterPointItem) => onSelect(s.policy, budgetOf(item))}
                >
                  <ErrorBar dataKey="whisker" direction="y" width={6} stroke={styles.get(s.policy)!.color} strokeOpacity={dim(s.policy) ? 0.15 : 0.6} />
                </Scatter>
              ),
            )}
            {series.map((s) =>
              s.own === null ? null : (
                <Scatter
                  key={`${s.policy}-own`}
                  name={s.policy}
                  data={[s.own]}
                  fill={styles.get(s.policy)!.color}
                  fillOpacity={dim(s.policy) ? 0.2 : 1}
                  stroke={highlighted === s.policy ? "#111827" : "#ffffff"}
                  strokeWidth={1}
                  shape={styles.get(s.policy)!.shape}
                  cursor="pointer"
                  isAnimationActive={false}
                  {...hover(s.policy)}
                  onClick={() => onSelect(s.policy, null)}
                >
                  <ErrorBar dataKey="whisker" direction="y" width={6} stroke="#6b7280" strokeOpacity={dim(s.policy) ? 0.2 : 1} />
                </Scatter>
              ),
            )}
            <TradeoffLabels series={series} styles={styles} highlighted={highlighted} />
          </ScatterChart>
        ) : null}
      </div>
      <PolicyLegend policies={series.map((s) => s.policy)} styles={styles} highlighted={highlighted} onHover={onHover} onSelect={(p) => onSelect(p, null)} />
      <figcaption className="faint">
        Whiskers: Wilson 95% interval of the no-impact rate. Labels that would overlap a point, a whisker, a line or another label are left out; hover a point
        for its figures, click it to list its cuts.
      </figcaption>
    </figure>
  );
}

/** The budget key of a clicked curve point (`budget-40`). */
function budgetOf(item: ScatterPointItem): string | null {
  const point = (item.payload ?? item) as Partial<ChartPoint>;
  return point.budgetPct === undefined ? null : `budget-${point.budgetPct}`;
}
