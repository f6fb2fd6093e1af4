import type { Metadata } from "next";
import Link from "next/link";
import { SimulatePanel } from "@/components/online/simulate-panel";
import { TraceUsagePanel } from "@/components/online/trace-usage-panel";
import { UsageUpload } from "@/components/online/usage-upload";
import { formatDateTime } from "@/lib/util/format-date-time";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { listUsageLogs } from "@/server/online/list-usage-logs";
import { listSimChoices } from "@/server/online/sim-choices";

export const metadata: Metadata = { title: "Online A/B" };
export const dynamic = "force-dynamic";

/**
 * Uploaded usage logs (rows are never loaded here: only their counts) and, for reviewers, the upload
 * flow, a usage log built from the traces' own provider usage, and the simulator over stored traces.
 */
export default async function OnlinePage() {
  const user = await requireUser("viewer");
  const logs = await listUsageLogs(getDb());
  const canUpload = hasRole(user.role, "reviewer");
  const choices = canUpload ? await listSimChoices(getDb()) : null;
  return (
    <>
      <div className="page-header">
        <h1>Online A/B</h1>
        <p>Mean input tokens per call by hour, treatment against control, with account-clustered intervals and billed cost.</p>
      </div>
      <div className="stack">
        {logs.length === 0 ? (
          <div className="card empty">
            <h2>No usage logs yet</h2>
            <p>
              Make a synthetic week with a known 12% reduction:{" "}
              <code className="mono">npx tsx scripts/make-usage-log.ts data/usage-week.csv --accounts 300</code>, then upload it
              {canUpload ? " below" : " (ask a reviewer)"}. <code className="mono">npm run studio</code> seeds one.
            </p>
          </div>
        ) : (
          <div className="card">
            <table className="dt" aria-label="Usage logs">
              <thead>
                <tr>
                  <th>File</th>
                  <th className="num">Calls</th>
                  <th className="num">Skipped rows</th>
                  <th className="num">Slots stored</th>
                  <th>From</th>
                  <th>To</th>
                  <th>Uploaded</th>
                </tr>
              </thead>
              <tbody>
                {logs.map((log) => (
                  <tr key={log.id}>
                    <td>
                      <Link href={`/online/${log.id}`}>{log.fileName}</Link>
                    </td>
                    <td className="num">{log.rowCount.toLocaleString("en-US")}</td>
                    <td className="num">{log.errorCount.toLocaleString("en-US")}</td>
                    <td className="num">{log.slotCount.toLocaleString("en-US")}</td>
                    <td className="mono">{log.firstAt ? formatDateTime(log.firstAt) : "—"}</td>
                    <td className="mono">{log.lastAt ? formatDateTime(log.lastAt) : "—"}</td>
                    <td className="mono">{formatDateTime(log.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {canUpload ? <UsageUpload /> : null}
        {choices ? <TraceUsagePanel sessionsWithUsage={choices.sessionsWithUsage} /> : null}
        {choices ? <SimulatePanel choices={choices} /> : null}
      </div>
    </>
  );
}
