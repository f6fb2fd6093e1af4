"use client";

import { Area, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { CurveDatum } from "./curve-data";
import { CurveTooltip } from "./curve-tooltip";

/**
 * The reduction by hour, 100 × (1 − treatment / control), with its account-clustered 95% band
 * (pooled curve only) and the window's overall reduction as a reference line.
 */
export function ReductionChart({ data, overall, title }: { data: CurveDatum[]; overall: number; title: string }) {
  const hasBand = data.some((d) => d.band !== null);
  return (
    <figure style={{ margin: 0 }} aria-label={title} data-testid="reduction-curve">
      <figcaption className="faint">{title}</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="hour" stroke="#6b7280" />
          <YAxis stroke="#6b7280" width={64} unit="%" />
          <Tooltip content={<CurveTooltip />} />
          <Legend verticalAlign="top" />
          {hasBand ? (
            <Area type="monotone" dataKey="band" name="95% band" stroke="none" fill="#c7d2fe" fillOpacity={0.7} connectNulls isAnimationActive={false} />
          ) : null}
          <ReferenceLine y={0} stroke="#9ca3af" />
          <ReferenceLine
            y={overall}
            stroke="#4f46e5"
            strokeDasharray="4 4"
            label={{ value: `overall ${overall.toFixed(1)}%`, position: "insideTopRight", fill: "#4f46e5", fontSize: 12 }}
          />
          <Line
            type="monotone"
            dataKey="reductionPct"
            name="reduction %"
            stroke="#4f46e5"
            strokeWidth={2}
            dot={{ r: 3 }}
            connectNulls
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
