import { formatSuiteFilterText } from "@/lib/evaluation/suites/suite-filter-text";
import Link from "next/link";
import { formatDateTime } from "@/lib/util/format-date-time";
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
              <td className="faint">{formatDateTime(run.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function suiteLabel(run: Pick<EvalRunSummary, "settings" | "sessions">): string {
  const suite = run.settings?.suite;
  return `${suite ? suiteName(suite) : "?"} · ${run.sessions} sessions`;
}

/** all, Hard Set, or the filter by its saved name and its `--filter` text (what reproduces it in the CLI). */
function suiteName(suite: NonNullable<EvalRunSummary["settings"]>["suite"]): string {
  if (suite.kind === "all") return "all";
  const filter = suite.filter ? formatSuiteFilterText(suite.filter) : "";
  const described = [suite.name, filter ? `filter ${filter}` : ""].filter(Boolean).join(": ");
  if (suite.kind === "hard") return described ? `Hard Set of ${described}` : "Hard Set";
  return described || "every session";
}
