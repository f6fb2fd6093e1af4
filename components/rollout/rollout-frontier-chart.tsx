"use client";

import { CartesianGrid, ErrorBar, LabelList, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import type { RolloutPolicyRow } from "@/server/rollout/get-rollout";
import { costReductionPct } from "./rollout-format";

/**
 * The cost/quality frontier: per policy, billed cost saved after caching (x, %) against lost steps
 * per 100 calls (y) with its 95% Wilson whiskers. Up and left is worse; the best policies sit low and
 * right. When no session was priced, x is the prompt-token reduction instead (the axis says so).
 */
export function RolloutFrontierChart({ policies }: { policies: RolloutPolicyRow[] }) {
  const priced = policies.some((p) => p.cost !== null);
  const data = policies
    .filter((p) => p.lostStepsPer100 !== null)
    .map((p) => {
      const x = priced ? costReductionPct(p.cost) : p.reductionPct;
      const y = p.lostStepsPer100!;
      const interval = p.lostPer100Interval ?? { low: y, high: y };
      return { id: p.id, x: x === null ? 0 : Math.round(x * 100) / 100, y, whisker: [Math.max(0, y - interval.low), Math.max(0, interval.high - y)] };
    });
  if (data.length === 0) return <p className="faint">No calls were rolled out.</p>;
  const offsets = labelOffsets(data);
  return (
    <figure style={{ margin: 0 }} aria-label="Cost and quality frontier" data-testid="rollout-frontier">
      <ResponsiveContainer width="100%" height={300}>
        <ScatterChart margin={{ top: 16, right: 24, bottom: 32, left: 16 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="x"
            name={priced ? "cost reduction" : "prompt-token reduction"}
            unit="%"
            label={{ value: priced ? "Billed cost saved after caching (%)" : "Prompt tokens saved (%) — no session priced", position: "bottom" }}
          />
          <YAxis
            type="number"
            dataKey="y"
            name="lost steps / 100 calls"
            label={{ value: "Lost / 100 calls", angle: -90, position: "insideLeft", style: { textAnchor: "middle" } }}
          />
          <Tooltip cursor={{ strokeDasharray: "3 3" }} />
          <Scatter data={data} fill="#4f46e5" isAnimationActive={false}>
            <ErrorBar dataKey="whisker" direction="y" width={6} stroke="#4f46e5" />
            <LabelList
              dataKey="id"
              content={(props) => {
                const { x, y, width, height, value, index } = props as {
                  x?: number;
                  y?: number;
                  width?: number;
                  height?: number;
                  value?: string;
                  index?: number;
                };
                if (x === undefined || y === undefined) return null;
                return (
                  <text x={x + (width ?? 0) + 4} y={y + (height ?? 0) / 2 + (offsets[index ?? 0] ?? 0)} dominantBaseline="middle" fontSize={12} fill="#374151">
                    {value}
                  </text>
                );
              }}
            />
          </Scatter>
        </ScatterChart>
      </ResponsiveContainer>
      <figcaption className="faint">One point per policy; whiskers: 95% Wilson interval of lost steps per 100 calls.</figcaption>
    </figure>
  );
}

/**
 * Vertical label offsets (px) so policies at nearly the same point do not print over each other: each
 * label moves one line further down for every earlier point close enough for their labels to touch
 * (within a tenth of the x span, about a label's width, and 8% of the y span, about its height).
 */
function labelOffsets(points: readonly { x: number; y: number }[]): number[] {
  const span = (values: number[]) => Math.max(1e-9, Math.max(...values) - Math.min(...values));
  const sx = span(points.map((p) => p.x)),
    sy = span(points.map((p) => p.y));
  return points.map((p, i) => 14 * points.slice(0, i).filter((q) => Math.abs(q.x - p.x) / sx < 0.1 && Math.abs(q.y - p.y) / sy < 0.08).length);
}
