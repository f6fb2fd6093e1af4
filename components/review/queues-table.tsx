"use client";

import Link from "next/link";
import { plural } from "@/lib/util/plural";
import type { QueueSummary } from "./review-types";

const KIND_LABELS = {
  dependency: "Future dependencies",
  failure: "Failure categories",
  ab: "A/B pairs",
  calibration: "Judge calibration (view verdicts)",
} as const;

/** Review queues with progress: items done (at the queue's overlap), completions per reviewer. */
export function QueuesTable({ queues }: { queues: QueueSummary[] }) {
  return (
    <div className="card dt-scroll">
      <table className="dt" aria-label="Review queues">
        <thead>
          <tr>
            <th scope="col">Queue</th>
            <th scope="col">Kind</th>
            <th scope="col">Evaluation run</th>
            <th scope="col">Done</th>
            <th scope="col">Verdicts</th>
            <th scope="col">By reviewer</th>
            <th scope="col">Overlap</th>
            <th scope="col">Lease</th>
          </tr>
        </thead>
        <tbody>
          {queues.map((q) => (
            <tr key={q.id} data-testid="queue-row">
              <td>
                <Link href={`/review/${q.id}`}>{q.name}</Link>
              </td>
              <td>
                {KIND_LABELS[q.kind]}
                {q.options.pair ? (
                  <span className="faint">
                    {" "}
                    · {q.options.pair[0]} vs {q.options.pair[1]}
                  </span>
                ) : null}
                {q.options.blind ? <span className="faint"> · blind</span> : null}
                {q.options.sample && q.options.sample.size < q.options.sample.from ? <span className="faint"> · sample of {q.options.sample.size}</span> : null}
              </td>
              <td>
                {q.runId === null ? (
                  <span className="muted">gold units (imported)</span>
                ) : q.runName ? (
                  <Link href={`/evaluations/${q.runId}`}>{q.runName}</Link>
                ) : (
                  <span className="muted">(deleted)</span>
                )}
              </td>
              <td>
                <progress max={q.items} value={q.done} aria-label={`${q.done} of ${plural(q.items, "item")} done`} /> {q.done} / {q.items}
              </td>
              <td>{q.labels}</td>
              <td>
                {Object.entries(q.byReviewer)
                  .map(([r, n]) => `${r}: ${n}`)
                  .join(", ") || "–"}
              </td>
              <td>{q.overlap}</td>
              <td>
                {q.leaseMinutes} min{q.open > 0 ? ` · ${q.open} open` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
