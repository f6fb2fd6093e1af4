"use client";

import { CartesianGrid, ErrorBar, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, LabelList } from "recharts";
import type { RunView } from "./eval-types";

type Aggregate = RunView["aggregates"]["policies"][number];

/**
 * Seed 000 Figure 4: one point per policy at (pruning rate %, no-impact rate %), with the Wilson
 * 95% interval of the no-impact rate as vertical whiskers. Clicking a point drills down to its cuts.
 */
export function TradeoffChart({ policies, onSelect }: { policies: Aggregate[]; onSelect: (policy: string) => void }) {
  const points = policies.filter((p) => p.n > 0).map((p) => ({
    id: p.id,
    x: p.prunePct,
    y: p.noImpactPct,
    whisker: [Math.max(0, p.noImpactPct - p.ci95[0]), Math.max(0, p.ci95[1] - p.noImpactPct)],
    n: p.n,
  }));
  if (points.length === 0) return <p className="faint">No judged cuts yet.</p>;
  return (
    <figure aria-label="Trade-off chart: pruning rate against no-impact rate" data-testid="tradeoff-chart" style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height={360}>
        <ScatterChart margin={{ top: 16, right: 24, bottom: 32, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis type="number" dataKey="x" name="Pruning rate" unit="%" domain={[0, 100]} label={{ value: "Pruning rate (%)", position: "bottom" }} />
          <YAxis type="number" dataKey="y" name="No-impact rate" unit="%" domain={[0, 100]} label={{ value: "No-impact rate (%)", angle: -90, position: "insideLeft" }} />
          <Tooltip formatter={(value) => `${Number(value).toFixed(1)}%`} labelFormatter={() => ""} />
          <Scatter data={points} fill="#4f46e5" cursor="pointer" onClick={(point) => onSelect((point as unknown as { id: string }).id)} isAnimationActive={false}>
            <ErrorBar dataKey="whisker" direction="y" width={6} stroke="#6b7280" />
            <LabelList dataKey="id" position="right" style={{ fontSize: 11 }} />
          </Scatter>
        </ScatterChart>
      </ResponsiveContainer>
      <figcaption className="faint">Whiskers: Wilson 95% interval of the no-impact rate. Click a point to list its cuts.</figcaption>
    </figure>
  );
}
