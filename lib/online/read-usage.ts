import { applyOverrides, guessMapping, missingRequired, unknownColumns, type ColumnMapping } from "./columns";
import { readCsv } from "./csv";
import { splitLines } from "./lines";
import { USAGE_FIELDS, UsageRowSchema, type UsageField, type UsageIssue, type UsageRow } from "./schema";
import { flatKeys, shortFound, toText, toTimestamp, toTokens, valueAt, type Converted } from "./values";

export type UsageFormat = "csv" | "jsonl";

export interface ReadUsageOptions {
  format: UsageFormat;
  /** Full mapping; when absent it is guessed from the CSV header (or the first JSONL object's keys). */
  mapping?: ColumnMapping;
  /** `field → column` overrides applied on top of the guess (or of `mapping`). */
  overrides?: Record<string, string>;
}

export type UsageItem = { ok: true; line: number; row: UsageRow } | { ok: false; issue: UsageIssue };

/** The mapping cannot work (a required field unmapped, a column the file lacks): nothing can be read. */
export class UsageMappingError extends Error {
  constructor(
    message: string,
    readonly mapping: ColumnMapping,
  ) {
    super(message);
  }
}

/**
 * Streams validated usage rows out of CSV or JSONL text chunks. Every bad row becomes one located
 * issue (line, column, what was expected, what was found) and reading continues, so one upload
 * reports all its problems. Throws `UsageMappingError` before the first row when the mapping is
 * unusable.
 */
export async function* readUsageRows(chunks: AsyncIterable<string> | Iterable<string>, options: ReadUsageOptions): AsyncGenerator<UsageItem> {
  if (options.format === "csv") yield* readCsvRows(chunks, options);
  else yield* readJsonlRows(chunks, options);
}

async function* readCsvRows(chunks: AsyncIterable<string> | Iterable<string>, options: ReadUsageOptions): AsyncGenerator<UsageItem> {
  let headers: string[] | undefined;
  let columnIndex: Partial<Record<UsageField, number>> = {};
  let mapping: ColumnMapping = {};
  for await (const item of readCsv(chunks)) {
    if (!item.ok) {
      yield item;
      continue;
    }
    const { line, cells } = item.record;
    if (!headers) {
      headers = cells.map((c) => c.trim());
      mapping = resolveMapping(options, headers);
      const unknown = unknownColumns(mapping, headers);
      if (unknown.length > 0) throw new UsageMappingError(`mapped column(s) ${unknown.map((c) => JSON.stringify(c)).join(", ")} not in the header (${headers.join(", ")})`, mapping);
      columnIndex = Object.fromEntries(Object.entries(mapping).map(([f, c]) => [f, headers!.indexOf(c!)]));
      continue;
    }
    if (cells.length !== headers.length) {
      yield { ok: false, issue: { line, expected: `${headers.length} cells (as in the header)`, found: `${cells.length}`, message: `expected ${headers.length} cells as in the header, found ${cells.length}` } };
      continue;
    }
    yield toItem(line, mapping, (field) => {
      const i = columnIndex[field];
      return i === undefined ? undefined : cells[i];
    });
  }
}

async function* readJsonlRows(chunks: AsyncIterable<string> | Iterable<string>, options: ReadUsageOptions): AsyncGenerator<UsageItem> {
  let mapping: ColumnMapping | undefined;
  for await (const { line, text } of splitLines(chunks)) {
    if (text.trim() === "") continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      yield { ok: false, issue: { line, expected: "one JSON object per line", found: shortFound(text), message: `expected one JSON object per line: ${error instanceof Error ? error.message : String(error)}` } };
      continue;
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      yield { ok: false, issue: { line, expected: "a JSON object", found: shortFound(text), message: "expected a JSON object" } };
      continue;
    }
    const object = record as Record<string, unknown>;
    mapping ??= resolveMapping(options, flatKeys(object));
    const current = mapping;
    yield toItem(line, current, (field) => {
      const key = current[field];
      return key === undefined ? undefined : valueAt(object, key);
    });
  }
}

function resolveMapping(options: ReadUsageOptions, headers: readonly string[]): ColumnMapping {
  const mapping = applyOverrides(options.mapping ?? guessMapping(headers), options.overrides ?? {});
  const missing = missingRequired(mapping);
  if (missing.length > 0) throw new UsageMappingError(`no column mapped to ${missing.join(", ")} (columns: ${headers.join(", ")}); map it with field=column`, mapping);
  return mapping;
}

const CONVERTERS: Record<UsageField, (raw: unknown) => Converted<unknown>> = {
  timestamp: toTimestamp,
  account: (raw) => (typeof raw === "string" && raw.trim() !== "" ? { ok: true, value: raw.trim() } : typeof raw === "number" ? { ok: true, value: String(raw) } : { ok: false, expected: "a non-empty account id or e-mail" }),
  group: toText,
  surface: toText,
  inputTokens: (raw) => toTokens(raw, undefined),
  cachedInputTokens: (raw) => toTokens(raw, 0),
  cacheWriteTokens: (raw) => toTokens(raw, 0),
  outputTokens: (raw) => toTokens(raw, 0),
  model: toText,
};

/** Converts one record field by field (first problem wins, located at its column), then checks the row schema. */
function toItem(line: number, mapping: ColumnMapping, get: (field: UsageField) => unknown): UsageItem {
  const row: Record<string, unknown> = {};
  for (const field of USAGE_FIELDS) {
    const raw = mapping[field] === undefined ? undefined : get(field);
    const converted = CONVERTERS[field](raw);
    if (!converted.ok) {
      const found = raw === undefined || raw === "" ? "nothing" : shortFound(raw);
      return { ok: false, issue: { line, column: mapping[field] ?? field, expected: converted.expected, found, message: `expected ${converted.expected}, found ${found}` } };
    }
    if (converted.value !== undefined) row[field] = converted.value;
  }
  const parsed = UsageRowSchema.safeParse(row);
  if (parsed.success) return { ok: true, line, row: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "") as UsageField;
  return { ok: false, issue: { line, column: mapping[field] ?? field, expected: issue.message, message: `expected ${issue.message}` } };
}
