import type { RunView } from "./eval-types";

type Report = RunView["aggregates"]["sensitivity"][number];

const LABEL: Record<Report["records"], string> = { own: "each policy at its own settings", matched: "at matched budgets" };

/**
 * Judge sensitivity (issue 16; seed 000's Limitations): the policies' ranking by no-impact rate,
 * recomputed under variants of the dependency judge (the visible and restorable rules, each
 * dependency kind left out in turn). One line per set of units — "The ranking holds under k of n
 * judge variants" — then the variants that change it and which pairs they swap, and in a
 * collapsible table every variant's rates.
 */
export function JudgeSensitivity({ reports }: { reports: Report[] }) {
  return (
    <div className="stack" data-testid="judge-sensitivity">
      {reports.map((r) => {
        const flips = r.variants.filter((v) => !v.holds);
        const policies = r.variants[0]!.ranking;
        return (
          <div key={r.records} className="stack" style={{ gap: 4 }} data-testid={`sensitivity-${r.records}`}>
            <p>
              <strong data-testid="sensitivity-line">
                The ranking holds under {r.holds} of {r.of} judge variants
              </strong>{" "}
              ({LABEL[r.records]}; headline order: <span className="mono">{policies.join(" > ")}</span>).
            </p>
            {flips.length > 0 ? (
              <ul style={{ margin: 0 }}>
                {flips.map((v) => (
                  <li key={v.variant}>
                    <span className="mono">{v.variant}</span> ({v.description}){" "}
                    {v.swaps.length > 0 ? <>swaps {v.swaps.map(([a, b]) => `${a} ↔ ${b}`).join(", ")}</> : "changes which policies are ranked"}
                    {v.topHolds ? (
                      ""
                    ) : (
                      <>
                        ; the top policy becomes <span className="mono">{v.ranking[0]}</span>
                      </>
                    )}
                    .
                  </li>
                ))}
              </ul>
            ) : null}
            <details>
              <summary>Each variant&apos;s no-impact rates</summary>
              <div className="dt-scroll dt-full">
                <table className="dt" aria-label={`Judge variants, ${LABEL[r.records]}`}>
                  <thead>
                    <tr>
                      <th>Variant</th>
                      {policies.map((p) => (
                        <th key={p} className="num mono">
                          {p}
                        </th>
                      ))}
                      <th>Ranking</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.variants.map((v) => (
                      <tr key={v.variant}>
                        <td title={v.description}>
                          <span className="mono">{v.variant}</span> <span className="faint">{v.description}</span>
                        </td>
                        {policies.map((p) => (
                          <td key={p} className="num">
                            {v.rates[p] === undefined ? "—" : v.rates[p]!.toFixed(2)}
                          </td>
                        ))}
                        <td>{v.holds ? "holds" : "changes"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </div>
        );
      })}
    </div>
  );
}
