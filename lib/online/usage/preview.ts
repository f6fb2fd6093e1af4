import { applyOverrides, guessMapping, missingRequired, unknownColumns, type ColumnMapping } from "./columns";
import { readCsv } from "./csv";
import { readUsageRows, UsageMappingError, type UsageFormat, type UsageItem } from "./read-usage";
import { splitLines } from "./lines";
import { flatKeys } from "./values";

export interface UsagePreview {
  format: UsageFormat;
  /** CSV header, or the keys of the first JSONL object. */
  headers: string[];
  /** What Tracefold guessed from the headers alone. */
  guessed: ColumnMapping;
  /** The guess with the caller's overrides applied: what an import would use. */
  mapping: ColumnMapping;
  missing: string[];
  /** Mapped columns the header does not have (CSV). */
  unknown: string[];
  /** The first rows read with `mapping` (empty while `missing` or `unknown` is non-empty). */
  rows: UsageItem[];
}

/**
 * The column-mapping step: headers, a guessed mapping and the first rows parsed with it, from the
 * beginning of the file (the caller reads e.g. 64 KiB). A line cut by the sample's end is dropped
 * unless `complete` says the sample is the whole file.
 */
export async function previewUsage(
  sample: string,
  options: { format: UsageFormat; overrides?: Record<string, string>; limit?: number; complete?: boolean },
): Promise<UsagePreview> {
  const limit = options.limit ?? 20;
  const text = options.complete || sample.endsWith("\n") ? sample : sample.slice(0, sample.lastIndexOf("\n") + 1);
  const headers = await headersOf(text, options.format);
  const guessed = guessMapping(headers);
  const mapping = applyOverrides(guessed, options.overrides ?? {});
  const missing = missingRequired(mapping);
  const unknown = options.format === "csv" ? unknownColumns(mapping, headers) : [];
  const rows: UsageItem[] = [];
  if (missing.length === 0 && unknown.length === 0) {
    try {
      for await (const item of readUsageRows([text], { format: options.format, mapping })) {
        rows.push(item);
        if (rows.length >= limit) break;
      }
    } catch (error) {
      if (!(error instanceof UsageMappingError)) throw error;
    }
  }
  return { format: options.format, headers, guessed, mapping, missing, unknown, rows };
}

async function headersOf(text: string, format: UsageFormat): Promise<string[]> {
  if (format === "csv") {
    for await (const item of readCsv([text])) return item.ok ? item.record.cells.map((c) => c.trim()) : [];
    return [];
  }
  for await (const { text: line } of splitLines([text])) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      return value && typeof value === "object" && !Array.isArray(value) ? flatKeys(value as Record<string, unknown>) : [];
    } catch {
      return [];
    }
  }
  return [];
}
