"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface SimPoint {
  call: number;
  without: number;
  with: number;
  /** Sessions behind the point (pooled curve) or 1 when a commit happened right before the call. */
  note?: string;
}

/** The simulator's two per-call series: prompt tokens without the policy and with it (commits drop the line). */
export function SimulationChart({ data, title }: { data: SimPoint[]; title: string }) {
  return (
    <figure style={{ margin: 0 }} aria-label={title} data-testid="sim-chart">
      <figcaption className="faint">{title}</figcaption>
      <ResponsiveContainer width="100%" height={280}>
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="call" stroke="#6b7280" label={{ value: "model call", position: "insideBottomRight", offset: -4 }} />
          <YAxis stroke="#6b7280" width={72} tickFormatter={(v: number) => v.toLocaleString("en-US")} />
          <Tooltip
            formatter={(v) => (typeof v === "number" ? Math.round(v).toLocaleString("en-US") : String(v))}
            labelFormatter={(call, payload) => `call ${call}${payload?.[0]?.payload?.note ? ` · ${payload[0].payload.note}` : ""}`}
          />
          <Legend verticalAlign="top" />
          <Line type="linear" dataKey="without" name="without the policy" stroke="#6b7280" strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line type="linear" dataKey="with" name="with the policy" stroke="#4f46e5" strokeWidth={2} dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
