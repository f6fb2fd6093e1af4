import type { RedactOptions } from "./find-secrets";
import { redactLines, type LineRedaction } from "./redact-lines";
import type { SecretKind } from "./rules";

/** One secret the redactor would replace, as the upload page shows it before anything is sent. */
export interface PreviewFinding {
  kind: SecretKind;
  line: number;
  fingerprint: string;
  /**
   * The line around the secret with the secret masked: `before` and `after` come from the redacted
   * line (any other secret there is already a placeholder), `masked` shows at most a quarter of the
   * secret's first characters and its length (`sk-p… (38 chars)`), never the secret.
   */
  excerpt: { before: string; masked: string; after: string };
}

export interface RedactionPreview {
  /** Every finding, also those past `limit`. */
  count: number;
  findings: PreviewFinding[];
  lines: number;
}

/** Characters of context on each side of a secret in an excerpt. */
const CONTEXT = 40;

/**
 * What redacting a file would do, computed from its text as it streams in (chunks of any size,
 * split into lines exactly as the server splits an upload: at `\n`, a `\r` before it dropped), with
 * the same redactLines the upload runs. Keeps the first `limit` findings with excerpts and counts
 * the rest. Stores nothing and sends nothing: the upload page runs it in the browser.
 */
export async function previewRedaction(chunks: AsyncIterable<string>, options: RedactOptions, limit = 200): Promise<RedactionPreview> {
  const findings: PreviewFinding[] = [];
  let count = 0;
  let lines = 0;
  const originals: string[] = [];
  async function* split(): AsyncIterable<string> {
    let rest = "";
    for await (const chunk of chunks) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      for (const part of parts) {
        originals.push(stripCr(part));
        yield originals[originals.length - 1]!;
      }
    }
    // A last line without `\n` keeps its `\r`, as the server's line reader keeps it.
    if (rest.length > 0) {
      originals.push(rest);
      yield rest;
    }
  }
  const report: LineRedaction[] = [];
  for await (const redacted of redactLines(split(), report, options)) {
    lines += 1;
    const original = originals.shift()!;
    count += report.length;
    let shift = 0;
    for (const span of report) {
      const at = span.start + shift;
      const token = `[REDACTED:${span.kind}]`;
      shift += token.length - (span.end - span.start);
      if (findings.length >= limit) continue;
      findings.push({
        kind: span.kind,
        line: span.line,
        fingerprint: span.fingerprint,
        excerpt: {
          before: clipStart(redacted.slice(0, at)),
          masked: mask(span.kind, original.slice(span.start, span.end)),
          after: clipEnd(redacted.slice(at + token.length)),
        },
      });
    }
    report.length = 0;
  }
  return { count, findings, lines };
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** `sk-p… (38 chars)`: a quarter of the secret at most, never more than four characters. */
export function mask(kind: SecretKind, secret: string): string {
  const shown = kind === "private_key" ? 0 : Math.min(4, Math.floor(secret.length / 4));
  return `${secret.slice(0, shown)}… (${secret.length} chars)`;
}

function clipStart(text: string): string {
  return text.length > CONTEXT ? `…${text.slice(-CONTEXT)}` : text;
}

function clipEnd(text: string): string {
  return text.length > CONTEXT ? `${text.slice(0, CONTEXT)}…` : text;
}
