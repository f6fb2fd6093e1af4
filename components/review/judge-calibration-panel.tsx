"use client";

import { plural } from "@/lib/util/plural";
import type { QueueAgreement } from "./review-types";

type Calibration = NonNullable<QueueAgreement["judgeCalibration"]>;

/**
 * The deterministic judge against a calibration queue's labels: accuracy with its Wilson interval,
 * Cohen's κ with its interval, the confusion matrix (rows: people, columns: the judge) on the three
 * verdicts, the binary figure the headline asks (impact or not), and every disagreement.
 */
export function JudgeCalibrationPanel({ calibration: c }: { calibration: Calibration }) {
  const figure = (f: Calibration["binary"]) =>
    `accuracy ${f.accuracy.pct}% [${f.accuracy.ci95[0]}, ${f.accuracy.ci95[1]}] · Cohen's κ ${f.kappa.value} [${f.kappa.ci95[0]}, ${f.kappa.ci95[1]}]`;
  return (
    <div className="stack" data-testid="judge-calibration">
      <h3>Dependency judge against these labels</h3>
      <p>
        <span data-testid="calibration-units">{plural(c.units, "labelled view")}</span> judged
        {c.split > 0 ? ` · ${c.split} left out (their labellers tie)` : ""}
        {c.unlabelled > 0 ? ` · ${c.unlabelled} not labelled yet` : ""}
        {c.stale.length > 0 ? ` · ${c.stale.length} not judged (the trace no longer rebuilds the view)` : ""}
      </p>
      <p data-testid="calibration-three">Three verdicts: {figure(c)}</p>
      <p data-testid="calibration-binary">Impact or not: {figure(c.binary)}</p>
      <table className="dt review-matrix" aria-label="Confusion matrix of the dependency judge against the labels">
        <thead>
          <tr>
            <th scope="col">labels ↓ / judge →</th>
            {c.labels.map((l) => (
              <th key={l} scope="col">
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {c.labels.map((l, i) => (
            <tr key={l}>
              <th scope="row">{l}</th>
              {c.matrix[i]!.map((n, k) => (
                <td key={k}>{n}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <details data-testid="calibration-disagreements">
        <summary>{plural(c.disagreements.length, "disagreement")}</summary>
        <ul>
          {c.disagreements.map((d) => (
            <li key={d.unit}>
              <code>{d.unit}</code>: labels {d.gold}, judge {d.judge} — {d.note}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
