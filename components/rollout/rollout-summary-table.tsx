import type { RolloutPolicyRow } from "@/server/rollout/get-rollout";
import { costReductionPct, int, pct, per100, usd } from "./rollout-format";

/**
 * Per policy, pooled over every session: the figures `tracefold rollout` prints, and the Wilson
 * interval of lost steps; with the hard limit on, the commits it asked for.
 */
export function RolloutSummaryTable({ policies, hardLimit }: { policies: RolloutPolicyRow[]; hardLimit: boolean }) {
  return (
    <div className="card dt-scroll">
      <table className="dt" aria-label="Rollout summary per policy" data-testid="rollout-summary">
        <thead>
          <tr>
            <th>Policy</th>
            <th className="num">Calls</th>
            <th className="num">Input tokens without</th>
            <th className="num">Input tokens with</th>
            <th className="num">Reduction</th>
            <th className="num">Cached input</th>
            <th className="num">Cost without</th>
            <th className="num">Cost with</th>
            <th className="num">Compactions</th>
            <th className="num">Restores</th>
            <th className="num">Restored tokens</th>
            <th className="num">Lost steps / 100 calls [95% Wilson]</th>
            <th className="num" title="Calls whose prompt with the policy was larger than the window: a real harness would have failed them">
              Calls over the window
            </th>
            {hardLimit ? (
              <th className="num" title="Commits the harness asked for because the policy's own decision left the prompt over the window">
                Hard-limit commits
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {policies.map((p) => (
            <tr key={p.id} data-testid={`rollout-summary-${p.id}`}>
              <th scope="row" className="mono">
                {p.id}
              </th>
              <td className="num">{int(p.calls)}</td>
              <td className="num">{int(p.inputTokens.without)}</td>
              <td className="num">{int(p.inputTokens.with)}</td>
              <td className="num">{pct(p.reductionPct)}</td>
              <td className="num">{pct(p.cachedInputPct)}</td>
              <td className="num">{p.cost ? usd(p.cost.without) : "—"}</td>
              <td className="num" title={p.cost ? `cost reduction ${pct(costReductionPct(p.cost))}` : "no session priced"}>
                {p.cost ? usd(p.cost.with) : "—"}
              </td>
              <td className="num">{int(p.compactions)}</td>
              <td className="num">{int(p.restores)}</td>
              <td className="num">{int(p.restoredTokens)}</td>
              <td className="num">
                {per100(p.lostStepsPer100)}
                {p.lostPer100Interval ? (
                  <span className="faint">
                    {" "}
                    [{p.lostPer100Interval.low.toFixed(2)}, {p.lostPer100Interval.high.toFixed(2)}]
                  </span>
                ) : null}
              </td>
              <td className="num">{int(p.overflowCalls)}</td>
              {hardLimit ? <td className="num">{int(p.hardLimitCommits)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
