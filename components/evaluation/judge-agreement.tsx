import type { JudgeAgreement, PolicyRates } from "@/lib/review";
import { formatNumber, formatRate } from "@/components/review/review-types";

type Interval = { rate: number; low: number; high: number };
const interval = (p: Interval) => `${formatRate(p.rate)} [${formatRate(p.low)}, ${formatRate(p.high)}]`;

/**
 * One judge against the people's verdicts on the cut × policy units they labeled: the confusion
 * matrix (rows people, columns judge), Cohen's κ with its 95% interval and accuracy with its
 * Wilson interval. κ is undefined when people and judge used one and the same verdict for every
 * unit (chance agreement is then 1); the page says so instead of printing a number.
 */
export function JudgeAgreementView({ agreement: j }: { agreement: JudgeAgreement }) {
  const kappaUndefined = !Number.isFinite(j.kappa.kappa);
  return (
    <div className="stack" data-testid={`human-judge-${j.judge}`}>
      <p>
        <strong>{j.judge} judge</strong> against people on <span data-testid="judge-units">{j.n}</span> cut × policy verdicts
        {j.undecided ? ` (${j.undecided} left out: reviewers split evenly)` : ""}
      </p>
      <dl>
        <dt>Cohen&apos;s κ [95% CI]</dt>
        <dd data-testid="judge-kappa">
          {kappaUndefined
            ? "undefined (one verdict only on both sides)"
            : `${formatNumber(j.kappa.kappa)} [${formatNumber(j.kappa.low)}, ${formatNumber(j.kappa.high)}]`}
        </dd>
        <dt>Accuracy [95% Wilson]</dt>
        <dd data-testid="judge-accuracy">
          {interval(j.accuracy)} · {j.accuracy.successes} of {j.accuracy.n}
        </dd>
      </dl>
      <table className="dt" style={{ maxWidth: "28rem" }} aria-label={`Confusion matrix: people against the ${j.judge} judge`}>
        <thead>
          <tr>
            <th scope="col">people ↓ / judge →</th>
            {j.matrix.labels.map((l) => (
              <th key={l} scope="col">
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {j.matrix.labels.map((person, i) => (
            <tr key={person}>
              <th scope="row">{person}</th>
              {j.matrix.labels.map((judge, k) => (
                <td key={judge} data-testid={`matrix-${person}-${judge}`}>
                  {j.matrix.counts[i]![k]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The no-impact rate per policy: the judge on every cut it judged, the judge on the labeled cuts
 * only, and people on those same cuts — the last two are the like-for-like comparison.
 */
export function HumanRatesTable({ rates }: { rates: PolicyRates[] }) {
  return (
    <table className="dt" aria-label="No-impact rate per policy: judge and people">
      <thead>
        <tr>
          <th scope="col">Policy</th>
          <th scope="col">Judge, all cuts</th>
          <th scope="col">Judge, labeled cuts</th>
          <th scope="col">People, labeled cuts</th>
        </tr>
      </thead>
      <tbody>
        {rates.map((r) => (
          <tr key={r.policy} data-testid={`human-rate-${r.policy}`}>
            <th scope="row" className="mono">
              {r.policy}
            </th>
            {[r.judge, r.judgeOnReviewed, r.human].map((p, i) => (
              <td key={i}>
                {interval(p)} · {p.successes} / {p.n}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
