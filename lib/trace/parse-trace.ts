import { IssueList, MIN_DETECT_SCORE, type Importer } from "./importer";
import { IMPORTERS, importerFor } from "./registry";
import type { FormatId, ParseResult } from "./model";
import { SourceError, type TraceSource } from "./source";

export interface Detection {
  format: FormatId;
  score: number;
}

/** Ranks every importer's confidence for a file; the best one above the threshold wins. */
export function detectFormat(name: string, head: string): Detection | undefined {
  let best: Detection | undefined;
  for (const importer of IMPORTERS) {
    const score = safeDetect(importer, name, head);
    if (score >= MIN_DETECT_SCORE && (!best || score > best.score)) best = { format: importer.format, score };
  }
  return best;
}

function safeDetect(importer: Importer, name: string, head: string): number {
  try {
    return importer.detect(name, head);
  } catch {
    return 0;
  }
}

/** A parse result whose format may be unknown (nothing recognised the file). */
export interface TraceParse extends Omit<ParseResult, "format"> {
  format: FormatId | "unknown";
}

/**
 * Detects (or takes the given) format and parses one source. Never throws for bad input: binary
 * content, invalid UTF-8, unknown formats and oversize files all come back as located issues.
 */
export async function parseTrace(source: TraceSource, options: { format?: FormatId } = {}): Promise<TraceParse> {
  const issues = new IssueList(source.name);
  if (looksBinary(source.head)) {
    issues.error(1, "binary file: contains NUL bytes, not a text trace", undefined, "a UTF-8 text file (JSON, JSONL or Markdown)");
    return { format: options.format ?? "unknown", sessions: [], issues: issues.items };
  }
  const format = options.format ?? detectFormat(source.name, source.head)?.format;
  if (!format) {
    issues.error(
      1,
      "unknown trace format: no importer recognised this file",
      undefined,
      `one of ${IMPORTERS.map((i) => i.format).join(", ")} (or pass --format)`,
    );
    return { format: "unknown", sessions: [], issues: issues.items };
  }
  try {
    return await importerFor(format).parse(source);
  } catch (error) {
    if (error instanceof SourceError) {
      issues.error(error.line, error.message);
      return { format, sessions: [], issues: issues.items };
    }
    issues.error(1, `importer ${format} failed: ${error instanceof Error ? error.message : String(error)}`);
    return { format, sessions: [], issues: issues.items };
  }
}

function looksBinary(head: string): boolean {
  return head.slice(0, 8192).includes("\u0000");
}
