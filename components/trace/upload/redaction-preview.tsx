import type { RedactionPreview as Preview } from "@/lib/redact";
import { plural } from "@/lib/util/plural";
import type { PreviewState } from "./upload-item";

/**
 * What will be redacted from a picked file before it is stored: each secret's kind, line and the
 * line around it with the secret masked (its first characters at most, and its length). Computed in
 * the browser; the secret itself is never shown.
 */
export function RedactionPreview({ preview }: { preview: PreviewState | undefined }) {
  if (!preview || preview.status === "scanning") return <p className="muted upload-detail">Checking for secrets…</p>;
  if (preview.status === "failed") return <p className="issue upload-detail">Could not check the file for secrets: {preview.message}</p>;
  const { result } = preview;
  if (result.count === 0)
    return (
      <p className="muted upload-detail" data-testid="redaction-preview">
        No secrets found: the file will be stored as it is.
      </p>
    );
  return (
    <div className="upload-detail" data-testid="redaction-preview">
      <p style={{ margin: 0 }}>{plural(result.count, "secret")} will be redacted before the file is stored:</p>
      <ul className="upload-detail" aria-label="Secrets to redact">
        {result.findings.map((f, i) => (
          <li key={i} className="faint">
            line {f.line} · <strong>{f.kind}</strong> · <Excerpt finding={f} />
          </li>
        ))}
        {result.count > result.findings.length ? <li className="muted">…and {result.count - result.findings.length} more</li> : null}
      </ul>
    </div>
  );
}

function Excerpt({ finding }: { finding: Preview["findings"][number] }) {
  const { before, masked, after } = finding.excerpt;
  return (
    <code className="redaction-excerpt">
      {before}
      <mark title={`${finding.kind}, fingerprint ${finding.fingerprint}`}>{masked}</mark>
      {after}
    </code>
  );
}
