import Link from "next/link";
import { formatDateTime } from "@/lib/util/format-date-time";
import type { RolloutRunSummary } from "@/server/rollout/get-rollout";
import { RolloutProgress, RolloutStatusPill } from "./rollout-progress";

/** Every rollout run, newest first: status, sessions done of total, policies. */
export function RolloutRunsTable({ runs }: { runs: RolloutRunSummary[] }) {
  return (
    <div className="card dt-scroll">
      <table className="dt" aria-label="Rollout runs">
        <thead>
          <tr>
            <th>Run</th>
            <th>Status</th>
            <th>Sessions</th>
            <th>Policies</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-testid="rollout-run-row">
              <td>
                <Link href={`/rollouts/${run.id}`}>{run.name}</Link>
              </td>
              <td>
                <RolloutStatusPill status={run.status} />
              </td>
              <td>
                <RolloutProgress run={run} />
              </td>
              <td className="mono">{run.policies.join(", ")}</td>
              <td className="faint">{formatDateTime(run.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
