import type { Metadata } from "next";
import Link from "next/link";
import { TracesTable } from "@/components/trace/table/traces-table";
import { plural } from "@/lib/util/plural";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { listSessions } from "@/server/trace/list-sessions";

export const metadata: Metadata = { title: "Traces" };

/** Every imported session, newest upload first. */
export default async function TracesPage() {
  const user = await requireUser();
  const { rows, total } = await listSessions(getDb());
  const canUpload = hasRole(user.role, "reviewer");
  return (
    <>
      <div className="page-header">
        <h1>Traces</h1>
        <p>
          {plural(total, "session")}
          {rows.length < total ? ` (showing the newest ${rows.length.toLocaleString("en-US")})` : ""}
        </p>
        {canUpload && rows.length > 0 ? (
          <Link href="/upload" className="btn btn-primary" style={{ marginLeft: "auto" }}>
            Upload traces
          </Link>
        ) : null}
      </div>
      {rows.length === 0 ? <EmptyTraces canUpload={canUpload} /> : <TracesTable rows={rows} />}
    </>
  );
}

function EmptyTraces({ canUpload }: { canUpload: boolean }) {
  return (
    <div className="card empty">
      <h2>No traces yet</h2>
      <p>
        {canUpload ? (
          <>
            <Link href="/upload">Upload trace files</Link> from the browser, or import a folder from the command line:
          </>
        ) : (
          <>Ask a reviewer or admin to upload trace files, or import a folder from the command line:</>
        )}
      </p>
      <pre>npx tsx cli/main.ts import path/to/traces</pre>
    </div>
  );
}
