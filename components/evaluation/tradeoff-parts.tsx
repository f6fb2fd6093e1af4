"use client";

import { Symbols } from "recharts";
import { pct } from "./eval-types";
import type { PolicyStyle } from "./policy-style";
import type { ChartPoint } from "./tradeoff-series";

/**
 * The trade-off chart's tooltip: the policy by name, at its own settings or at a budget, and its
 * figures with one `%` each ("43.8%"; issue 17 item 9 found "43.8%%" without the policy).
 */
export function PointTooltip({ active, payload, xLabel }: { active?: boolean; payload?: readonly { payload?: unknown }[]; xLabel: string }) {
  const point = active ? (payload?.[0]?.payload as ChartPoint | undefined) : undefined;
  if (!point) return null;
  return (
    <div className="chart-tooltip" data-testid="tradeoff-tooltip">
      <div>
        <strong className="mono">{point.policy}</strong> ·{" "}
        {point.budgetPct === undefined ? "own settings" : `sweep: ${point.budgetPct}% of each prefix removed`}
      </div>
      <div>
        {xLabel}: {pct(point.x)}
      </div>
      <div>
        No-impact rate: {pct(point.y)} [{pct(point.ci95[0])}, {pct(point.ci95[1])}] · n = {point.n}
      </div>
    </div>
  );
}

/** The legend keyed by colour and shape: hovering an entry highlights the policy, clicking lists its cuts. */
export function PolicyLegend({
  policies,
  styles,
  highlighted,
  onHover,
  onSelect,
}: {
  policies: string[];
  styles: Map<string, PolicyStyle>;
  highlighted: string | null;
  onHover: (policy: string | null) => void;
  onSelect: (policy: string) => void;
}) {
  return (
    <ul className="chart-legend" aria-label="Policies in the chart">
      {policies.map((id) => {
        const style = styles.get(id)!;
        return (
          <li key={id}>
            <button
              type="button"
              aria-pressed={highlighted === id}
              data-testid="tradeoff-legend-item"
              data-policy={id}
              onMouseEnter={() => onHover(id)}
              onMouseLeave={() => onHover(null)}
              onFocus={() => onHover(id)}
              onBlur={() => onHover(null)}
              onClick={() => onSelect(id)}
            >
              <svg width={14} height={14} aria-hidden="true">
                <Symbols type={style.shape} cx={7} cy={7} size={64} fill={style.color} />
              </svg>
              {id}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
