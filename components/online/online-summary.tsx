import type { OnlineReport } from "@/lib/online/estimation/estimate";
import { GROUPS } from "@/lib/online/usage/schema";
import { plural } from "@/lib/util/plural";
import { fmt } from "./curve-data";

/** The headline numbers: reduction with its interval, peak, groups, billed cost, split balance and DiD. */
export function OnlineSummary({ report: r }: { report: OnlineReport }) {
  return (
    <section className="card card-body stack" aria-label="Summary">
      <p style={{ fontSize: 20, margin: 0 }} data-testid="online-reduction">
        Reduction <strong>{fmt(r.reductionPct, 1)}%</strong>{" "}
        <span className="faint">
          (95% CI {fmt(r.ci95[0], 1)} to {fmt(r.ci95[1], 1)}, accounts resampled)
        </span>
        {r.peakReductionPct !== null ? (
          <span>
            {" "}
            · peak {fmt(r.peakReductionPct, 1)}% at {String(r.peakHour).padStart(2, "0")}:00
          </span>
        ) : null}
      </p>
      <p className="faint" style={{ margin: 0 }}>
        Window {r.window.start}–{r.window.end} {r.window.timeZone} · {fmt(r.counts.used)} of {plural(r.counts.rows, "call")} used (outside window{" "}
        {fmt(r.counts.outsideWindow)}, volatile {fmt(r.counts.volatile)}, other surface {fmt(r.counts.otherSurface)}, unassigned {fmt(r.counts.unassigned)})
      </p>
      <p
        className={r.assignment.randomised ? "faint" : "alert"}
        role={r.assignment.randomised ? undefined : "note"}
        data-testid="online-assignment"
        style={{ margin: 0 }}
      >
        {r.assignment.rule}.{" "}
        {r.assignment.randomised ? "Randomised split." : `Not randomised: ${r.assignment.note.replace(/^the split is not randomised: /, "")}.`} Treatment holds{" "}
        {fmt(100 * r.balance.treatmentAccountShare, 1)}% of accounts and {fmt(100 * r.balance.treatmentCallShare, 1)}% of calls.
      </p>
      <table className="dt" aria-label="Groups">
        <thead>
          <tr>
            <th>Group</th>
            <th className="num">Calls</th>
            <th className="num">Accounts</th>
            <th className="num">Calls/account</th>
            <th className="num">Mean input</th>
            <th className="num">Cached</th>
            <th className="num">Cache write</th>
            <th className="num">Output</th>
            <th className="num">Cost/call</th>
          </tr>
        </thead>
        <tbody>
          {GROUPS.map((g) => (
            <tr key={g}>
              <td>{g}</td>
              <td className="num">{fmt(r.groups[g].calls)}</td>
              <td className="num">{fmt(r.groups[g].accounts)}</td>
              <td className="num">{fmt(r.balance.callsPerAccount[g], 1)}</td>
              <td className="num">{fmt(r.groups[g].meanInputTokens)}</td>
              <td className="num">{fmt(r.groups[g].meanCachedInputTokens)}</td>
              <td className="num">{fmt(r.groups[g].meanCacheWriteTokens)}</td>
              <td className="num">{fmt(r.groups[g].meanOutputTokens)}</td>
              <td className="num">${fmt(r.groups[g].costPerCallUsd, 4)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p style={{ margin: 0 }} data-testid="online-cost">
        Billed cost per call {fmt(r.cost.reductionPct, 1)}% lower (95% CI {fmt(r.cost.ci95[0], 1)} to {fmt(r.cost.ci95[1], 1)}) at ${r.cost.prices.input} input,
        ${r.cost.prices.cachedInput} cached, ${r.cost.prices.cacheWrite} cache write, ${r.cost.prices.output} output per million tokens.
      </p>
      {r.did ? (
        <p style={{ margin: 0 }} data-testid="online-did">
          Before the rollout treatment was already {fmt(r.did.preReductionPct, 1)}% lower; difference-in-differences {fmt(r.did.didPct, 1)}% (95% CI{" "}
          {fmt(r.did.ci95[0], 1)} to {fmt(r.did.ci95[1], 1)}).
        </p>
      ) : (
        <p className="faint" style={{ margin: 0 }}>
          Set a rollout instant inside the log to see the pre-period difference and the difference-in-differences.
        </p>
      )}
    </section>
  );
}
