import styles from "./session-header.module.css";

/**
 * Downloads of one session from the studio (issue 15, item 6): the same files the API serves to a
 * `read` key, so a viewer gets what a script would. Tracefold JSONL imports back here; OTLP JSON
 * (GenAI conventions) goes to any OpenTelemetry backend; the review labels are Phoenix span
 * annotations on that OTLP export's spans.
 */
export function SessionExportLinks({ sessionId }: { sessionId: string }) {
  const base = `/api/v1/sessions/${encodeURIComponent(sessionId)}`;
  return (
    <span data-testid="session-export">
      <a className={styles.factLink} href={`${base}/export?as=jsonl`} download title="Tracefold JSONL: uploads and tracefold import read it back">
        Tracefold JSONL
      </a>
      <a
        className={styles.factLink}
        href={`${base}/export?as=otlp`}
        download
        title="OTLP JSON in the OpenTelemetry GenAI conventions, for Phoenix, Langfuse or any OTLP backend"
      >
        OTLP JSON
      </a>
      <a
        className={styles.factLink}
        href={`${base}/span-annotations`}
        download
        title="The review labels as Phoenix / OpenInference span annotations on the OTLP export's spans"
      >
        Review labels (span annotations)
      </a>
    </span>
  );
}
