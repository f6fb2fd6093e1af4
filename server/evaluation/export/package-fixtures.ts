import { redactSession, type Redaction } from "@/lib/redact";
import { toTracefoldJsonl } from "@/lib/trace/export-tracefold-jsonl";
import type { LoadedSuiteSession } from "../load-suite-sessions";
import type { ValueRedactor } from "./redact-value";

/** The redaction report of the package: what was replaced, where (never the secret itself). */
export interface FixtureReport {
  sessions: {
    id: string;
    title: string;
    format: string;
    tokenizer: string;
    messages: number;
    redactions: Redaction[];
    /** Secrets found outside redactSession's fields (session and message metadata, names). */
    otherRedactions: number;
  }[];
  total: number;
}

/**
 * The sanitized fixtures: the evaluated sessions passed through lib/redact's redactSession (every
 * part kind, titles, compaction summaries), written as Tracefold JSONL under their database ids —
 * the ids the unit keys name — and then every string of every line once more through the package
 * redactor, for the fields redactSession does not cover (metadata). Importing the file back gives
 * the same messages; token counts can differ where a secret became a placeholder (see the report).
 */
export function sanitizedFixtures(sessions: readonly LoadedSuiteSession[], redactor: ValueRedactor): { jsonl: string; report: FixtureReport } {
  const report: FixtureReport = { sessions: [], total: 0 };
  let jsonl = "";
  for (const { session, tokenizer } of sessions) {
    const { session: redacted, redactions } = redactSession(session);
    const before = redactor.redacted;
    for (const line of toTracefoldJsonl([redacted]).split("\n")) if (line) jsonl += `${JSON.stringify(redactor.value(JSON.parse(line)))}\n`;
    const otherRedactions = redactor.redacted - before;
    report.sessions.push({
      id: session.id,
      title: redacted.title,
      format: session.format,
      tokenizer: tokenizer.id,
      messages: session.messages.length,
      redactions,
      otherRedactions,
    });
    report.total += redactions.length + otherRedactions;
  }
  return { jsonl, report };
}
