import Link from "next/link";
import type { ParseIssue } from "@/lib/trace/model";
import { plural } from "@/lib/util/plural";
import type { UploadResponse } from "@/server/trace/import/upload-response";
import { RedactionReport } from "./redaction-report";

/** Errors listed per failed file; the rest are counted (the CLI prints them all). */
const SHOWN_ISSUES = 20;

/** What happened to one file: its sessions (linked), or exactly why it was refused. */
export function UploadResult({ response }: { response: UploadResponse }) {
  if (!response.ok) {
    const issues = response.issues ?? [];
    const total = response.issueCount ?? issues.length;
    return (
      <div className="upload-detail" role="alert">
        <p className="issue" style={{ margin: 0 }}>
          {response.message}
        </p>
        {issues.length > 0 ? (
          <ul className="upload-detail" aria-label="Errors">
            {issues.slice(0, SHOWN_ISSUES).map((issue, i) => (
              <li key={i} className="issue">
                {describeIssue(issue)}
              </li>
            ))}
            {total > SHOWN_ISSUES ? (
              <li className="muted">
                …and {total - SHOWN_ISSUES} more errors ({total} in total)
              </li>
            ) : null}
          </ul>
        ) : null}
      </div>
    );
  }
  const { data } = response;
  if (!("sessions" in data)) {
    return (
      <p className="muted upload-detail" style={{ margin: 0 }}>
        A job worker imports this large file; this row updates when it is done.
      </p>
    );
  }
  const count = data.sessions.length;
  return (
    <div className="upload-detail">
      <p style={{ margin: 0 }}>
        {data.status === "duplicate" ? "Already uploaded: " : "Imported "}
        {plural(count, "session")} <span className="pill">{data.format}</span>
        {data.status === "imported" && (data.warningCount ?? 0) > 0 ? <span className="muted"> · {data.warningCount} warnings</span> : null}
      </p>
      <ul className="upload-detail" aria-label="Sessions">
        {data.sessions.slice(0, 50).map((s) => (
          <li key={s.id}>
            <Link href={`/sessions/${s.id}`}>{s.title || "(untitled)"}</Link>{" "}
            <span className="faint">
              {plural(s.messages, "message")} · {plural(s.toolCalls, "tool call")}
            </span>
          </li>
        ))}
        {count > 50 ? <li className="muted">…and {count - 50} more in the traces table</li> : null}
      </ul>
      {data.redaction ? <RedactionReport uploadId={data.uploadId} redaction={data.redaction} /> : null}
    </div>
  );
}

/** "line 12 · message.content[0]: unexpected end of JSON (expected: a JSON object)" */
function describeIssue(issue: ParseIssue): string {
  const where = `line ${issue.line}${issue.field ? ` · ${issue.field}` : ""}`;
  return `${where}: ${issue.message}${issue.expected ? ` (expected: ${issue.expected})` : ""}`;
}
