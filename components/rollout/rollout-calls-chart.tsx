"use client";

import { plural } from "@/lib/util/plural";
import { useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RolloutSessionRow } from "@/server/rollout/get-rollout";

/**
 * Input tokens per call along one chosen session, for one chosen policy: the prompt without the
 * policy and with it; a dashed line marks each commit, a dotted one each restore.
 */
export function RolloutCallsChart({ sessions }: { sessions: RolloutSessionRow[] }) {
  const [sessionId, setSessionId] = useState(sessions[0]?.sessionId ?? "");
  const session = sessions.find((s) => s.sessionId === sessionId) ?? sessions[0];
  const [policy, setPolicy] = useState(session?.policies.find((p) => p.id !== "none")?.id ?? session?.policies[0]?.id ?? "");
  if (!session) return null;
  const chosen = session.policies.find((p) => p.id === policy) ?? session.policies[0]!;
  const data = chosen.series.map(([without, withPolicy, compacted, restored], call) => ({ call: call + 1, without, with: withPolicy, compacted, restored }));
  return (
    <figure style={{ margin: 0 }} aria-label="Input tokens per call" data-testid="rollout-calls">
      <div className="row" style={{ gap: 12, flexWrap: "wrap" }}>
        <label className="field" style={{ maxWidth: 420 }}>
          Session
          <select className="select" value={session.sessionId} onChange={(e) => setSessionId(e.target.value)}>
            {sessions.map((s) => (
              <option key={s.sessionId} value={s.sessionId}>
                {s.title ?? s.session}
              </option>
            ))}
          </select>
        </label>
        <label className="field" style={{ maxWidth: 240 }}>
          Policy
          <select className="select" value={chosen.id} onChange={(e) => setPolicy(e.target.value)}>
            {session.policies.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={data} margin={{ top: 8, right: 24, bottom: 32, left: 16 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="call" allowDecimals={false} label={{ value: "Call", position: "bottom" }} />
          <YAxis label={{ value: "Input tokens", angle: -90, position: "insideLeft", style: { textAnchor: "middle" } }} />
          <Tooltip />
          <Legend verticalAlign="top" />
          {data
            .filter((d) => d.compacted)
            .map((d) => (
              <ReferenceLine key={`c${d.call}`} x={d.call} stroke="#059669" strokeDasharray="4 2" />
            ))}
          {data
            .filter((d) => d.restored > 0)
            .map((d) => (
              <ReferenceLine key={`r${d.call}`} x={d.call} stroke="#d97706" strokeDasharray="1 3" />
            ))}
          <Line dataKey="without" name="without the policy" stroke="#94a3b8" dot={false} isAnimationActive={false} />
          <Line dataKey="with" name={`with ${chosen.id}`} stroke="#4f46e5" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="faint">
        {plural(chosen.compactions, "commit")} (green dashes), {plural(chosen.restores, "restore")} (orange dots) in {plural(chosen.calls, "call")}.
      </figcaption>
    </figure>
  );
}
