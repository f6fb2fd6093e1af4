import { formatUsageCost, totalUsage, USAGE_PURPOSE_LABELS } from "@/lib/llm/usage";
import type { EvalRunSummary } from "./eval-types";

type Usage = EvalRunSummary["llmUsage"];
type Entry = NonNullable<Usage[keyof Usage]>;

const int = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * The run's model calls per purpose: calls, provider-reported tokens (cached input beside input)
 * and cost from the endpoints' prices (lib/llm/usage.ts, recorded by server/llm/usage-recorder.ts). Nothing is shown for a run
 * that made no model call.
 */
export function RunUsageTable({ usage }: { usage: Usage }) {
  const rows = Object.entries(usage).filter((e): e is [string, Entry] => e[1] !== undefined);
  if (rows.length === 0) return null;
  const sum = totalUsage(rows.map(([, e]) => e));
  return (
    <div className="card">
      <table className="dt" aria-label="LLM usage" data-testid="run-llm-usage">
        <thead>
          <tr>
            <th scope="col">Purpose</th>
            <th scope="col">Calls</th>
            <th scope="col">Input tokens</th>
            <th scope="col">of which cached</th>
            <th scope="col">Output tokens</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {[...rows, ["total", sum] as [string, Entry]].map(([purpose, e]) => (
            <tr key={purpose} data-purpose={purpose}>
              <th scope="row">{USAGE_PURPOSE_LABELS[purpose] ?? "Total"}</th>
              <td>{int(e.calls)}</td>
              <td>{int(e.inputTokens)}</td>
              <td>{int(e.cachedInputTokens)}</td>
              <td>{int(e.outputTokens)}</td>
              <td>{formatUsageCost(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
