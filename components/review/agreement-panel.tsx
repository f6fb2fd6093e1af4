"use client";

import { plural } from "@/lib/util/plural";
import { JudgeCalibrationPanel } from "./judge-calibration-panel";
import { formatNumber, formatRate, type QueueAgreement } from "./review-types";

type Inter = QueueAgreement["reviewers"];

function InterRow({ title, a }: { title: string; a: Inter }) {
  return (
    <tr>
      <th scope="row">{title}</th>
      <td>{a.method === "none" ? "no item labeled by two reviewers yet" : a.method === "cohen" ? "Cohen's κ" : "Fleiss' κ"}</td>
      <td data-testid={`${title}-units`}>{a.units}</td>
      <td data-testid={`${title}-kappa`}>{a.kappa ? `${formatNumber(a.kappa.kappa)} [${formatNumber(a.kappa.low)}, ${formatNumber(a.kappa.high)}]` : "–"}</td>
      <td data-testid={`${title}-percent`}>
        {formatRate(a.percent.rate)} [{formatRate(a.percent.low)}, {formatRate(a.percent.high)}]
      </td>
    </tr>
  );
}

/**
 * The agreement figures of a queue: inter-reviewer κ and percent agreement with 95% intervals;
 * for dependency queues each judge against the human consensus (confusion matrix, κ, accuracy
 * with its Wilson interval) and no-impact per policy from people beside the judge's; for A/B
 * queues seed 000's calibrated rates with people as the A/B judge.
 */
export function AgreementPanel({ agreement }: { agreement: QueueAgreement }) {
  return (
    <section className="card card-body stack" aria-labelledby="agreement-heading" data-testid="agreement-panel">
      <h2 id="agreement-heading">Agreement</h2>
      <table className="dt">
        <thead>
          <tr>
            <th scope="col">Judgement</th>
            <th scope="col">Method</th>
            <th scope="col">Items</th>
            <th scope="col">κ [95% CI]</th>
            <th scope="col">Agreement [95% CI]</th>
          </tr>
        </thead>
        <tbody>
          <InterRow
            title={
              agreement.kind === "dependency" || agreement.kind === "calibration" ? "verdicts" : agreement.kind === "failure" ? "categories" : "preferences"
            }
            a={agreement.reviewers}
          />
          {agreement.decisions ? <InterRow title="decisions" a={agreement.decisions as Inter} /> : null}
        </tbody>
      </table>
      {agreement.judgeCalibration ? <JudgeCalibrationPanel calibration={agreement.judgeCalibration} /> : null}
      {agreement.judges && agreement.judges.length > 0 ? (
        <>
          <h3>Judges against people ({agreement.humanVerdicts} human verdicts)</h3>
          {agreement.judges.map((j) => (
            <div key={j.judge} className="stack" data-testid={`judge-${j.judge}`}>
              <p>
                <strong>{j.judge}</strong>: n = {j.n}
                {j.undecided ? `, ${j.undecided} split` : ""} · κ {formatNumber(j.kappa.kappa)} · accuracy {formatRate(j.accuracy.rate)} [
                {formatRate(j.accuracy.low)}, {formatRate(j.accuracy.high)}] · sensitivity {formatRate(j.sensitivity.rate)}
              </p>
              <table className="dt review-matrix" aria-label={`Confusion matrix of ${j.judge}`}>
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
                  {j.matrix.labels.map((l, i) => (
                    <tr key={l}>
                      <th scope="row">{l}</th>
                      {j.matrix.counts[i]!.map((c, k) => (
                        <td key={k}>{c}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </>
      ) : null}
      {agreement.rates && agreement.rates.length > 0 ? (
        <>
          <h3>No-impact rate per policy</h3>
          <table className="dt">
            <thead>
              <tr>
                <th scope="col">Policy</th>
                <th scope="col">Judge, all cuts</th>
                <th scope="col">Judge, reviewed cuts</th>
                <th scope="col">People, reviewed cuts</th>
              </tr>
            </thead>
            <tbody>
              {agreement.rates.map((r) => (
                <tr key={r.policy}>
                  <th scope="row">{r.policy}</th>
                  {[r.judge, r.judgeOnReviewed, r.human].map((p, i) => (
                    <td key={i}>
                      {formatRate(p.rate)} [{formatRate(p.low)}, {formatRate(p.high)}] · n {p.n}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {agreement.calibration && agreement.calibration.length > 0 ? (
        <>
          <h3>A/B calibration (people as the A/B judge)</h3>
          <ul>
            {agreement.calibration.map((c) => (
              <li key={`${c.a}|${c.b}`}>
                {c.a} vs {c.b}: {plural(c.cases, "cut")} answered of {c.rates.n} · no-impact {c.a} {formatRate(c.rates.raw.a.rate)} →{" "}
                {formatRate(c.rates.calibrated.a.rate)}, {c.b} {formatRate(c.rates.raw.b.rate)} → {formatRate(c.rates.calibrated.b.rate)}
                {c.rates.extrapolated ? " (extrapolated)" : ""}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {agreement.spanProblems > 0 ? <p className="muted">{agreement.spanProblems} added spans no longer match their session and are left out.</p> : null}
    </section>
  );
}
