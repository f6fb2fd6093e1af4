import type { RolloutPolicyRow } from "@/server/rollout/get-rollout";
import { int, usd } from "./rollout-format";

/**
 * The LLM planner's model rounds per policy (self-gc with planner=llm), as `tracefold rollout`
 * reports them: rounds, input tokens (cached among them), output tokens, and what they cost —
 * already billed in the summary's "cost with". Policies without planner rounds are left out.
 */
export function RolloutPlannerTable({ policies }: { policies: RolloutPolicyRow[] }) {
  const planned = policies.filter((p) => p.planner.rounds > 0);
  if (planned.length === 0) return <p className="faint">The LLM planner was never asked (no self-gc commit was attempted).</p>;
  return (
    <div className="card dt-scroll">
      <table className="dt" aria-label="LLM planner per policy" data-testid="rollout-planner">
        <thead>
          <tr>
            <th>Policy</th>
            <th className="num">Planner rounds</th>
            <th className="num">Input tokens</th>
            <th className="num">Cached input</th>
            <th className="num">Output tokens</th>
            <th className="num">Cost</th>
          </tr>
        </thead>
        <tbody>
          {planned.map((p) => (
            <tr key={p.id} data-testid={`rollout-planner-${p.id}`}>
              <th scope="row" className="mono">
                {p.id}
              </th>
              <td className="num">{int(p.planner.rounds)}</td>
              <td className="num">{int(p.planner.inputTokens)}</td>
              <td className="num">{int(p.planner.cachedInputTokens)}</td>
              <td className="num">{int(p.planner.outputTokens)}</td>
              <td className="num" title={p.planner.unpricedRounds ? `${p.planner.unpricedRounds} unpriced rounds left out` : "billed in cost with"}>
                {p.planner.cost === null ? "unpriced" : usd(p.planner.cost)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
