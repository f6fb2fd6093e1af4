"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RolloutPolicyRow } from "@/server/rollout/get-rollout";

const COLOURS = ["#4f46e5", "#dc2626", "#059669", "#d97706", "#0891b2", "#7c3aed", "#db2777", "#65a30d", "#475569", "#ea580c"];

/** Drift: per compaction round (1 = a session's first commit), the dependencies each policy lost there; loss that piles up over rounds shows as a line that does not fall. */
export function RolloutDriftChart({ policies }: { policies: RolloutPolicyRow[] }) {
  const rounds = [...new Set(policies.flatMap((p) => p.drift.map((d) => d.round)))].sort((a, b) => a - b);
  if (rounds.length === 0) return <p className="faint">No policy committed a compaction, so nothing could drift.</p>;
  const data = rounds.map((round) => ({
    round,
    ...Object.fromEntries(policies.map((p) => [p.id, p.drift.find((d) => d.round === round)?.lost ?? 0])),
  }));
  return (
    <figure style={{ margin: 0 }} aria-label="Drift: dependencies lost per compaction round" data-testid="rollout-drift">
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={data} margin={{ top: 8, right: 24, bottom: 32, left: 16 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="round" allowDecimals={false} label={{ value: "Compaction round", position: "bottom" }} />
          <YAxis allowDecimals={false} label={{ value: "Lost dependencies", angle: -90, position: "insideLeft", style: { textAnchor: "middle" } }} />
          <Tooltip />
          <Legend verticalAlign="top" />
          {policies.map((p, i) => (
            <Line key={p.id} dataKey={p.id} stroke={COLOURS[i % COLOURS.length]} isAnimationActive={false} dot />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
