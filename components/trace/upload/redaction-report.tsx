import { plural } from "@/lib/util/plural";
import type { RedactionSummary } from "@/server/trace/import/redaction-report";

/**
 * What was redacted from one upload before it was stored: each secret's kind, line and offsets
 * within the line, and a fingerprint that correlates repeats (the secret itself never reaches the
 * browser). The full report stays reachable at /api/uploads/<id>/redactions.
 */
export function RedactionReport({ uploadId, redaction }: { uploadId: string; redaction: RedactionSummary }) {
  if (redaction.count === 0) {
    return (
      <p className="muted" style={{ margin: 0 }}>
        No secrets found: the file is stored as uploaded.
      </p>
    );
  }
  const more = redaction.count - redaction.entries.length;
  return (
    <div className="upload-detail" data-testid="redaction-report">
      <p style={{ margin: 0 }}>
        Redacted {plural(redaction.count, "secret")} before storing
        {redaction.rawKept ? " (the raw original is kept, as an admin set)" : " (the raw original is not kept)"} ·{" "}
        <a href={`/api/uploads/${encodeURIComponent(uploadId)}/redactions`}>full report</a>
      </p>
      <ul className="upload-detail" aria-label="Redactions">
        {redaction.entries.map((r, i) => (
          <li key={i} className="faint">
            line {r.line} · {r.kind} · characters {r.start}–{r.end} · fingerprint {r.fingerprint}
          </li>
        ))}
        {more > 0 ? <li className="muted">…and {more} more in the full report</li> : null}
      </ul>
    </div>
  );
}
