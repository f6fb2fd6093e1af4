import { ReviewLabelSchema, type ReviewLabel } from "../label-schema";
import { locateIssues, type ImportError } from "./issues";

/**
 * JSONL export: one label version per line, keys in the schema's order (the canonical form, so an
 * export of an import of an export is byte-identical), newline-terminated. Every version is
 * exported, not just the current ones: the file is the full history.
 */
export function exportJsonl(labels: readonly ReviewLabel[]): string {
  return labels.map((label) => `${JSON.stringify(ReviewLabelSchema.parse(label))}\n`).join("");
}

export interface ParsedRecord {
  line: number;
  label: ReviewLabel;
}

/** Parses and validates every line (blank lines are skipped); collects every problem, not just the first. */
export function parseJsonl(text: string): { records: ParsedRecord[]; errors: ImportError[] } {
  const records: ParsedRecord[] = [];
  const errors: ImportError[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    const source = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (source.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      errors.push({ line, field: "(line)", expected: "one JSON object", message: `invalid JSON: ${(error as Error).message}` });
      return;
    }
    const parsed = ReviewLabelSchema.safeParse(value);
    if (parsed.success) records.push({ line, label: parsed.data });
    else errors.push(...locateIssues(parsed.error.issues, line, (path) => path.map(String).join(".")));
  });
  return { records, errors };
}
