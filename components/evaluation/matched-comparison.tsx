"use client";

import type { RunView } from "./eval-types";
import { SIZE_MATCH_TOLERANCE } from "@/lib/evaluation/aggregate/matched";
import { formatP, matchedSentence } from "./matched-sentence";

type Matched = NonNullable<RunView["aggregates"]["matched"]>;
type Diff = Matched["paired"][number];

const fixed = (x: number | null) => (x === null ? "—" : x.toFixed(2));
const signed = (x: number) => `${x > 0 ? "+" : ""}${x.toFixed(2)}`;

/**
 * The matched comparison (issue 16, `--match`): at every cut each policy compacted to the view size
 * the reference reached there, so differences in no-impact are not differences in how much was
 * removed. A row per policy — its prune, net prune, no-impact (Wilson interval) and visible rates at
 * the matched size — and, against the reference on the same cuts, the paired difference in points
 * (reference − policy) with its bootstrap interval over sessions and McNemar's exact p, for the
 * headline and for "everything visible", and the visible difference again over the cuts where the
 * two views really are the same size (a policy that removes whole turns may stop short or overshoot);
 * then the same in sentences. Clicking a policy lists its matched cuts.
 */
export function MatchedComparison({
  matched,
  onSelect,
  highlighted,
  onHover,
}: {
  matched: Matched;
  onSelect: (policy: string, budget: string) => void;
  highlighted: string | null;
  onHover: (policy: string | null) => void;
}) {
  const budget = `match-${matched.reference}`;
  const diff = (policy: string, metric: Diff["metric"]) => matched.paired.find((d) => d.policy === policy && d.metric === metric);
  const cell = (d: Pick<Diff, "diffPts" | "ci95" | "mcnemarP" | "pairs"> | null | undefined, pairs = false) =>
    d ? (
      <>
        {signed(d.diffPts)} [{d.ci95[0].toFixed(2)}, {d.ci95[1].toFixed(2)}]
        <br />
        <span className="faint">
          McNemar p {formatP(d.mcnemarP)}
          {pairs ? ` · ${d.pairs} cut${d.pairs === 1 ? "" : "s"}` : ""}
        </span>
      </>
    ) : (
      "—"
    );
  const tolerance = Math.round(100 * SIZE_MATCH_TOLERANCE);
  const failed = Object.values(matched.failedUnits).reduce((n, k) => n + k, 0);
  return (
    <div className="stack" data-testid="matched-comparison">
      <p className="faint">
        Every policy compacted, at each cut, to the view size <span className="mono">{matched.reference}</span> reached there (where it did not compact, nobody
        did). Differences are <span className="mono">{matched.reference}</span> − policy, in points, with a 95% bootstrap interval over sessions and
        McNemar&apos;s exact p on the paired cuts. A policy that removes whole turns may stop short of the size or overshoot it: the last column repeats the
        visible difference over the cuts where {matched.reference} compacted and the two views are within {tolerance}% of the prefix of each other.
        {failed > 0 ? ` ${failed} matched unit${failed === 1 ? "" : "s"} failed and are left out.` : ""}
      </p>
      <div className="dt-scroll dt-full">
        <table className="dt" aria-label={`Matched to ${matched.reference}`}>
          <thead>
            <tr>
              <th>Policy</th>
              <th className="num">Prune %</th>
              <th className="num">Net prune %</th>
              <th className="num">No-impact % [95%]</th>
              <th className="num">Visible %</th>
              <th className="num">n</th>
              <th className="num">Δ no-impact (pts)</th>
              <th className="num">Δ visible (pts)</th>
              <th
                className="num"
                title={`Over the cuts where the reference compacted and the policy's view is within ${tolerance}% of the prefix of the reference's`}
              >
                Δ visible, same size (pts)
              </th>
            </tr>
          </thead>
          <tbody>
            {matched.policies.map((p) => (
              <tr
                key={p.policy}
                className={`dt-row-link${highlighted === p.policy ? " dt-row-highlight" : ""}`}
                onClick={() => onSelect(p.policy, budget)}
                onMouseEnter={() => onHover(p.policy)}
                onMouseLeave={() => onHover(null)}
                data-policy={p.policy}
              >
                <td>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm mono"
                    onClick={(e) => {
                      e.stopPropagation();
                      onSelect(p.policy, budget);
                    }}
                    aria-label={`Matched cuts of ${p.policy}`}
                  >
                    {p.policy}
                  </button>
                  {p.policy === matched.reference ? <span className="faint"> (reference)</span> : null}
                </td>
                <td className="num">{p.prunePct.toFixed(2)}</td>
                <td className="num">{fixed(p.netPrunePct)}</td>
                <td className="num">
                  {p.noImpactPct.toFixed(2)} [{p.ci95[0].toFixed(2)}, {p.ci95[1].toFixed(2)}]
                </td>
                <td className="num">{fixed(p.visibleNoImpactPct)}</td>
                <td className="num">{p.n}</td>
                <td className="num">{p.policy === matched.reference ? "reference" : cell(diff(p.policy, "noImpact"))}</td>
                <td className="num">{p.policy === matched.reference ? "reference" : cell(diff(p.policy, "visibleNoImpact"))}</td>
                <td className="num" data-testid={`matched-same-size-${p.policy}`}>
                  {p.policy === matched.reference ? "reference" : cell(diff(p.policy, "visibleNoImpact")?.sizeMatched, true)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {matched.paired.length > 0 ? (
        <ul className="stack" style={{ gap: 2, margin: 0 }} data-testid="matched-sentences">
          {matched.paired.map((d) => (
            <li key={`${d.policy}-${d.metric}`}>{capitalised(matchedSentence(matched.reference, d))}.</li>
          ))}
        </ul>
      ) : (
        <p className="faint">No paired cuts yet.</p>
      )}
    </div>
  );
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
