"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { PolicyFrequency } from "./eval-types";

/**
 * Compaction frequency (seed 003): for the chosen policy, how many judged cuts fell in each band of
 * the session's token budget and at how many of them the policy actually compacted (pruneRate > 0).
 */
export function FrequencyChart({ frequency, policy, onPolicy }: { frequency: PolicyFrequency[]; policy: string; onPolicy: (policy: string) => void }) {
  const chosen = frequency.find((f) => f.policy === policy) ?? frequency[0];
  if (!chosen || chosen.cuts === 0) return <p className="faint">No judged cuts yet.</p>;
  const data = chosen.bins.map((b) => ({ band: `${b.from}–${b.to}%`, fired: b.fired, notFired: b.cuts - b.fired }));
  return (
    <figure style={{ margin: 0 }} aria-label={`Compaction frequency of ${chosen.policy}`} data-testid="frequency-chart">
      <label className="field" style={{ maxWidth: 280 }}>
        Policy
        <select className="select" value={chosen.policy} onChange={(e) => onPolicy(e.target.value)}>
          {frequency.map((f) => (
            <option key={f.policy} value={f.policy}>
              {f.policy}
            </option>
          ))}
        </select>
      </label>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={data} margin={{ top: 8, right: 16, bottom: 24, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="band" label={{ value: "Prefix share of the session's tokens at the cut", position: "bottom" }} />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend verticalAlign="top" />
          <Bar dataKey="fired" name="compacted" stackId="cuts" fill="#4f46e5" isAnimationActive={false} />
          <Bar dataKey="notFired" name="left as is" stackId="cuts" fill="#d1d5db" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="faint">
        {chosen.policy} compacted at {chosen.fired} of {chosen.cuts} judged cuts.
      </figcaption>
    </figure>
  );
}
