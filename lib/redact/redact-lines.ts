import { applySpans, findSecrets, fingerprint, type RedactOptions, type SecretSpan } from "./find-secrets";

/** A secret found in a raw file, located by 1-based line and offsets within that line. */
export interface LineRedaction extends SecretSpan {
  line: number;
}

/**
 * Redacts raw trace lines (an upload before it is parsed) one line at a time, so a 200 MB JSONL
 * streams through. A PEM private key spans lines: from its BEGIN line to its END line every line
 * is replaced whole (and reported per line, with the fingerprint of the line).
 */
export async function* redactLines(
  lines: AsyncIterable<string> | Iterable<string>,
  report: LineRedaction[],
  options: RedactOptions = {},
): AsyncIterable<string> {
  let line = 0;
  let inPem = false;
  for await (const text of lines) {
    line += 1;
    if (inPem) {
      report.push({ kind: "private_key", start: 0, end: text.length, fingerprint: fingerprint(text), line });
      if (/-----END[A-Z0-9 ]{0,40} PRIVATE KEY-----/.test(text)) inPem = false;
      yield "[REDACTED:private_key]";
      continue;
    }
    const spans = findSecrets(text, options);
    const last = spans[spans.length - 1];
    if (last?.kind === "private_key" && last.end === text.length && !/-----END[A-Z0-9 ]{0,40} PRIVATE KEY-----/.test(text.slice(last.start))) inPem = true;
    for (const span of spans) report.push({ ...span, line });
    yield spans.length ? applySpans(text, spans) : text;
  }
}
