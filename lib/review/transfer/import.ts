import { appendLabels, type LabelHistory, type LabelHistoryError } from "../history";
import type { ReviewLabel } from "../label-schema";
import { parseCsv } from "./csv";
import type { ImportError } from "./issues";
import { exportJsonl, parseJsonl, type ParsedRecord } from "./jsonl";

/**
 * Importing labels back (JSONL or CSV). All or nothing, like trace imports: with any error no
 * label is accepted, and every error is reported with its line, field and what was expected.
 *
 * Versions are never overwritten:
 * - the same (labelId, version) twice in the file → refused (both lines named);
 * - a (labelId, version) already stored with different content → refused; with identical content
 *   it is skipped (re-importing one's own export is harmless);
 * - a version whose predecessor is neither stored nor in the file, a thread that changes reviewer,
 *   kind or item, or a version dated before its predecessor → refused (lib/review/history.ts).
 */
export type LabelFormat = "jsonl" | "csv";

export type ImportResult = { ok: true; labels: ReviewLabel[]; skipped: number; history: LabelHistory } | { ok: false; errors: ImportError[] };

export function importLabels(text: string, format: LabelFormat, existing: LabelHistory = new Map()): ImportResult {
  const { records, errors } = format === "jsonl" ? parseJsonl(text) : parseCsv(text);
  const firstLine = new Map<string, number>();
  const fresh: ParsedRecord[] = [];
  let skipped = 0;
  for (const record of records) {
    const { labelId, version } = record.label;
    const key = `${labelId}\u0000${version}`;
    const seen = firstLine.get(key);
    if (seen !== undefined) {
      errors.push({
        line: record.line,
        field: "version",
        expected: `a version of ${labelId} not already in the file`,
        message: `label ${labelId} version ${version} is also on line ${seen}`,
      });
      continue;
    }
    firstLine.set(key, record.line);
    // Threads hold versions 1, 2, 3, … in order (history.ts), so a stored version is found by index.
    const candidate = existing.get(labelId)?.[version - 1];
    const stored = candidate?.version === version ? candidate : undefined;
    if (!stored) fresh.push(record);
    else if (exportJsonl([stored]) === exportJsonl([record.label])) skipped++;
    else
      errors.push({
        line: record.line,
        field: "version",
        expected: `a version of ${labelId} not already stored`,
        message: `label ${labelId} version ${version} is already stored with different content; add a new version instead`,
      });
  }
  const ordered = [...fresh].sort((a, b) =>
    a.label.labelId < b.label.labelId ? -1 : a.label.labelId > b.label.labelId ? 1 : a.label.version - b.label.version,
  );
  const lineOf = new Map(ordered.map((record) => [record.label, record.line]));
  const history = appendLabels(
    existing,
    ordered.map((record) => record.label),
    (label, error) => {
      errors.push({
        line: lineOf.get(label)!,
        field: error.code === "changed-thread" ? "labelId" : "supersedes",
        expected: expectedFor(error.code),
        message: error.message,
      });
    },
  );
  if (errors.length > 0) return { ok: false, errors: errors.sort((a, b) => a.line - b.line) };
  return { ok: true, labels: fresh.map((r) => r.label), skipped, history };
}

function expectedFor(code: LabelHistoryError["code"]): string {
  if (code === "missing-previous") return "the superseded version stored or earlier in the file";
  if (code === "changed-thread") return "the same kind, reviewer and item as the earlier versions, dated no earlier";
  return "a new version";
}
