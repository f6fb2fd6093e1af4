"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { CurveDatum } from "./curve-data";
import { CurveTooltip } from "./curve-tooltip";

/** Seed 000's Figure 5: mean input tokens per call by local hour, treatment against control. */
export function GroupCurvesChart({ data, title }: { data: CurveDatum[]; title: string }) {
  return (
    <figure style={{ margin: 0 }} aria-label={title} data-testid="group-curves">
      <figcaption className="faint">{title}</figcaption>
      <ResponsiveContainer width="100%" height={280}>
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="hour" stroke="#6b7280" />
          <YAxis stroke="#6b7280" width={64} tickFormatter={(v: number) => v.toLocaleString("en-US")} />
          <Tooltip content={<CurveTooltip />} />
          <Legend verticalAlign="top" />
          <Line type="monotone" dataKey="control" name="control" stroke="#6b7280" strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
          <Line type="monotone" dataKey="treatment" name="treatment" stroke="#4f46e5" strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
