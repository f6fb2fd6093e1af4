import Link from "next/link";
import type { EvalRunSummary } from "./eval-types";
import { RunProgressBar, RunStatusPill } from "./run-progress-bar";

/** Every run, newest first: status, progress, suite, judge, who started it. */
export function RunsTable({ runs }: { runs: EvalRunSummary[] }) {
  return (
    <div className="card dt-scroll">
      <table className="dt" aria-label="Evaluation runs">
        <thead>
          <tr>
            <th>Run</th>
            <th>Status</th>
            <th>Progress</th>
            <th>Suite</th>
            <th>Policies</th>
            <th>Judge</th>
            <th>Started by</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td>
                <Link href={`/evaluations/${run.id}`}>{run.name}</Link>
              </td>
              <td>
                <RunStatusPill status={run.status} />
              </td>
              <td>
                <RunProgressBar run={run} />
              </td>
              <td>{suiteLabel(run)}</td>
              <td className="num">{run.settings?.policies.length ?? "—"}</td>
              <td>{run.settings?.judge ?? "—"}</td>
              <td>{run.createdBy ?? "—"}</td>
              <td className="faint">{new Date(run.createdAt).toLocaleString("en-US")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function suiteLabel(run: Pick<EvalRunSummary, "settings" | "sessions">): string {
  const suite = run.settings?.suite;
  const name = !suite ? "?" : suite.kind === "all" ? "all" : suite.kind === "hard" ? "Hard Set" : `formats: ${suite.filter.formats?.join(", ") ?? "filter"}`;
  return `${name} · ${run.sessions} sessions`;
}
