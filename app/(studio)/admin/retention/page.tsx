import type { Metadata } from "next";
import { RetentionForm } from "@/components/admin/retention-form";
import { parseAge } from "@/lib/util/parse-age";
import { formatDateTime } from "@/lib/util/format-date-time";
import { plural } from "@/lib/util/plural";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { uploadsOlderThan } from "@/server/ingest/retention/delete-uploads";

export const metadata: Metadata = { title: "Retention" };
export const dynamic = "force-dynamic";

const DEFAULT_AGE = "30d";

/** Admin: what a retention of the given age would delete (a preview), and the form that deletes it. */
export default async function AdminRetentionPage({ searchParams }: { searchParams: Promise<{ olderThan?: string }> }) {
  await requireUser("admin");
  const asked = (await searchParams).olderThan ?? DEFAULT_AGE;
  const age = parseAge(asked);
  const due = age === null ? [] : await uploadsOlderThan(getDb(), new Date(Date.now() - age));
  const sessions = due.reduce((n, u) => n + u.sessions, 0);
  return (
    <>
      <div className="page-header">
        <h1>Retention</h1>
        <p>
          Delete uploaded traces older than an age: their sessions, replays&apos; sidecars and stored files go; evaluation results and review labels that used
          them stay, marked on their run. Uploads a queued or running job still reads are kept. The same as <code>tracefold retention --older-than 30d</code>.
          Earlier backups still hold what is deleted here.
        </p>
      </div>
      <form className="row card card-body" method="get" aria-label="Preview">
        <label htmlFor="older-than">Older than</label>
        <input id="older-than" name="olderThan" className="input" defaultValue={asked} style={{ width: "8em" }} aria-describedby="older-than-help" />
        <span id="older-than-help" className="faint">
          30d, 12h or 90m
        </span>
        <button type="submit" className="btn">
          Preview
        </button>
      </form>
      {age === null ? (
        <p className="alert alert-error" role="alert">
          “{asked}” is not an age: use 30d, 12h or 90m.
        </p>
      ) : due.length === 0 ? (
        <p className="empty" data-testid="retention-preview">
          No upload is older than {asked}.
        </p>
      ) : (
        <section className="card" aria-labelledby="due-heading">
          <h2 id="due-heading" className="card-body" data-testid="retention-preview">
            {plural(due.length, "upload")} ({plural(sessions, "session")}) stored before {formatDateTime(new Date(Date.now() - age))}
          </h2>
          <table className="dt" aria-label="Uploads to delete">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Sessions</th>
                <th scope="col">Uploaded</th>
              </tr>
            </thead>
            <tbody>
              {due.slice(0, 200).map((u) => (
                <tr key={u.id}>
                  <td className="mono">{u.fileName}</td>
                  <td className="num">{u.sessions}</td>
                  <td className="faint">{formatDateTime(u.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {due.length > 200 ? <p className="faint card-body">… and {due.length - 200} more.</p> : null}
        </section>
      )}
      {/* Outside the preview, so the form (and what it deleted) stays on screen when the list empties. */}
      {age !== null ? (
        <section className="card card-body">
          <RetentionForm olderThan={asked} due={due.length} />
        </section>
      ) : null}
    </>
  );
}
