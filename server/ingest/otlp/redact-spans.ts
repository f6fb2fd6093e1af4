import type { ReceivedSpan } from "@/lib/ingest/otlp/received-span";
import { redactLines, redactOptionsOf, type LineRedaction } from "@/lib/redact";
import type { Db } from "../../db/client";
import { getRedactionSettings, rulesOf } from "../../settings/redaction-settings";

/** A received span as it is stored: its record as redacted JSON text. */
export interface RedactedSpan extends Omit<ReceivedSpan, "record" | "hasGenAi"> {
  payload: string;
  /** How many secrets were replaced in this span. */
  redactions: number;
}

/**
 * Redacts each span's record with the admin's redaction settings before anything is stored — the
 * same detectors, switched-off rules, allow-list and e-mail setting as file uploads (each record
 * is one JSON line, as an uploaded OTLP JSONL file would be). Unredacted spans are never kept.
 */
export async function redactSpans(db: Db, spans: readonly ReceivedSpan[]): Promise<RedactedSpan[]> {
  const options = redactOptionsOf(rulesOf(await getRedactionSettings(db)));
  const out: RedactedSpan[] = [];
  for (const { record, hasGenAi: _genAi, ...span } of spans) {
    const report: LineRedaction[] = [];
    let payload = "";
    for await (const line of redactLines([JSON.stringify(record)], report, options)) payload += line;
    out.push({ ...span, payload, redactions: report.length });
  }
  return out;
}
