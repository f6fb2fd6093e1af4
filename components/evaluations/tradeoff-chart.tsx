"use client";

import { useEffect, useRef, useState } from "react";
import { CartesianGrid, ErrorBar, LabelList, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import type { RunView } from "./eval-types";
import { layoutLabels, type PlacedLabel } from "./label-layout";

type Aggregate = RunView["aggregates"]["policies"][number];

const HEIGHT = 360;
const MARGIN = { top: 16, right: 24, bottom: 32, left: 8 };
/** Recharts' default axis sizes: the plot area is the chart less the margins and these. */
const Y_AXIS_WIDTH = 60;
const X_AXIS_HEIGHT = 30;

/**
 * Seed 000 Figure 4: one point per policy at (pruning rate %, no-impact rate %), with the Wilson
 * 95% interval of the no-impact rate as vertical whiskers. Clicking a point drills down to its cuts.
 * Point labels are laid out by label-layout.ts so clustered policies stay legible (moved labels get
 * a leader line); the chart measures its own width so the layout knows where each point lands.
 */
export function TradeoffChart({ policies, onSelect }: { policies: Aggregate[]; onSelect: (policy: string) => void }) {
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.getBoundingClientRect().width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const points = policies.filter((p) => p.n > 0).map((p) => ({
    id: p.id,
    x: p.prunePct,
    y: p.noImpactPct,
    whisker: [Math.max(0, p.noImpactPct - p.ci95[0]), Math.max(0, p.ci95[1] - p.noImpactPct)],
    n: p.n,
  }));
  if (points.length === 0) return <p className="faint">No judged cuts yet.</p>;
  const plot = { left: MARGIN.left + Y_AXIS_WIDTH, top: MARGIN.top, right: width - MARGIN.right, bottom: HEIGHT - MARGIN.bottom - X_AXIS_HEIGHT };
  const px = (p: { x: number; y: number }) => ({ x: plot.left + (p.x / 100) * (plot.right - plot.left), y: plot.bottom - (p.y / 100) * (plot.bottom - plot.top) });
  const placed = layoutLabels(points.map((p) => ({ id: p.id, label: p.id, ...px(p) })), { bounds: plot });
  return (
    <figure aria-label="Trade-off chart: pruning rate against no-impact rate" data-testid="tradeoff-chart" style={{ margin: 0 }}>
      <div ref={frame} style={{ width: "100%", height: HEIGHT }}>
        {width > 0 ? (
          <ScatterChart width={width} height={HEIGHT} margin={MARGIN}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" dataKey="x" name="Pruning rate" unit="%" domain={[0, 100]} height={X_AXIS_HEIGHT} label={{ value: "Pruning rate (%)", position: "bottom" }} />
            <YAxis type="number" dataKey="y" name="No-impact rate" unit="%" domain={[0, 100]} width={Y_AXIS_WIDTH} label={{ value: "No-impact rate (%)", angle: -90, position: "insideLeft" }} />
            <Tooltip formatter={(value) => `${Number(value).toFixed(1)}%`} labelFormatter={() => ""} />
            <Scatter data={points} fill="#4f46e5" cursor="pointer" onClick={(point) => onSelect((point as unknown as { id: string }).id)} isAnimationActive={false}>
              <ErrorBar dataKey="whisker" direction="y" width={6} stroke="#6b7280" />
              <LabelList dataKey="id" content={(props) => <PointLabel {...(props as LabelProps)} placed={placed} expected={points.map(px)} />} />
            </Scatter>
          </ScatterChart>
        ) : null}
      </div>
      <figcaption className="faint">Whiskers: Wilson 95% interval of the no-impact rate. Click a point to list its cuts.</figcaption>
    </figure>
  );
}

interface LabelProps {
  x?: number | string;
  y?: number | string;
  width?: number | string;
  height?: number | string;
  index?: number;
  value?: unknown;
  /** The point's symbol box (Recharts 3 gives a Scatter label the symbol's top-left and size). */
  viewBox?: { x?: number; y?: number; width?: number; height?: number };
}

/**
 * One label at its laid-out place, relative to where Recharts actually drew the point (the offset
 * from the layout's own estimate of the point, so a slightly different axis size cannot misplace it).
 */
function PointLabel({ viewBox, index, value, placed, expected, ...box }: LabelProps & { placed: PlacedLabel[]; expected: { x: number; y: number }[] }) {
  if (index === undefined || !placed[index] || !expected[index]) return null;
  const { x, y, width, height } = viewBox ?? box;
  const cx = Number(x ?? 0) + Number(width ?? 0) / 2;
  const cy = Number(y ?? 0) + Number(height ?? 0) / 2;
  const dx = cx - expected[index].x;
  const dy = cy - expected[index].y;
  const label = placed[index];
  return (
    <g data-testid="tradeoff-label" data-policy={String(value)}>
      {label.leader ? <line x1={cx} y1={cy} x2={label.lineTo.x + dx} y2={label.lineTo.y + dy} stroke="#9ca3af" strokeWidth={1} /> : null}
      <text x={label.x + dx} y={label.y + dy} dominantBaseline="central" fontSize={11} fill="#374151">
        {String(value)}
      </text>
    </g>
  );
}
