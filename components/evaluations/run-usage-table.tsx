import type { EvalRunSummary } from "./eval-types";

type Usage = EvalRunSummary["llmUsage"];
type Entry = NonNullable<Usage[keyof Usage]>;

const LABELS: Record<string, string> = { planner: "Planner", summarizer: "Summarizer", rubric: "Rubric", judge: "Judge", "ab-judge": "A/B judge", "connection-test": "Connection test" };
const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** USD with enough digits for cheap calls; a partly priced sum says it is a lower bound. */
function cost(entry: Entry): string {
  if (entry.unpricedCalls === entry.calls) return "— (no prices set)";
  const usd = `$${entry.costUsd < 1 ? entry.costUsd.toFixed(4) : entry.costUsd.toFixed(2)}`;
  return entry.unpricedCalls > 0 ? `≥ ${usd} (${entry.unpricedCalls} calls unpriced)` : usd;
}

function total(entries: Entry[]): Entry {
  return entries.reduce(
    (sum, e) => ({ calls: sum.calls + e.calls, inputTokens: sum.inputTokens + e.inputTokens, cachedInputTokens: sum.cachedInputTokens + e.cachedInputTokens, outputTokens: sum.outputTokens + e.outputTokens, costUsd: sum.costUsd + e.costUsd, unpricedCalls: sum.unpricedCalls + e.unpricedCalls }),
    { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 },
  );
}

/**
 * The run's model calls per purpose: calls, provider-reported tokens (cached input beside input)
 * and cost from the endpoints' prices (server/llm/usage-recorder.ts). Nothing is shown for a run
 * that made no model call.
 */
export function RunUsageTable({ usage }: { usage: Usage }) {
  const rows = Object.entries(usage).filter((e): e is [string, Entry] => e[1] !== undefined);
  if (rows.length === 0) return null;
  const sum = total(rows.map(([, e]) => e));
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
            <th scope="row">{LABELS[purpose] ?? "Total"}</th>
            <td>{int(e.calls)}</td>
            <td>{int(e.inputTokens)}</td>
            <td>{int(e.cachedInputTokens)}</td>
            <td>{int(e.outputTokens)}</td>
            <td>{cost(e)}</td>
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}
