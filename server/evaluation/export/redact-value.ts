import { applySpans, findSecrets } from "@/lib/redact";

/**
 * Secret redaction for everything in the reproduction package that is derived from trace content
 * but is not a session: judge evidence (dependency values are quoted from the trace), planner XML
 * (route hints name paths, URLs and call arguments), patch reasons and summaries, session metadata.
 * The same detectors as lib/redact's redactSession, so a secret the fixtures lost is also lost here.
 * Counts what it replaced; it never keeps the secret.
 */
export class ValueRedactor {
  redacted = 0;

  text(value: string): string {
    const spans = findSecrets(value);
    if (spans.length === 0) return value;
    this.redacted += spans.length;
    return applySpans(value, spans);
  }

  /** A deep copy with every string (keys included) redacted. */
  value<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.walk(v)]));
    return value;
  }
}
