import { applyOverrides, guessMapping, missingRequired, unknownColumns, type ColumnMapping } from "./columns";
import { readCsvBatches } from "./csv";
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
  /** Told the mapping in force once it is known, before the first row (a caller's default may depend on it). */
  onMapping?: (mapping: ColumnMapping) => void;
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
  for await (const batch of readUsageBatches(chunks, options)) yield* batch;
}

/**
 * The same items as `readUsageRows`, one array per input chunk: what the CLI, the importer and the
 * benchmark read, since millions of rows cannot each afford an async-generator round trip.
 */
export async function* readUsageBatches(chunks: AsyncIterable<string> | Iterable<string>, options: ReadUsageOptions): AsyncGenerator<UsageItem[]> {
  if (options.format === "csv") yield* readCsvRows(chunks, options);
  else {
    let batch: UsageItem[] = [];
    for await (const item of readJsonlRows(chunks, options)) {
      batch.push(item);
      if (batch.length >= 1_000) (yield batch, (batch = []));
    }
    if (batch.length > 0) yield batch;
  }
}

/** Text fields that outlive the row (aggregation keys, slot labels): see `intern`. */
const KEPT_TEXT: ReadonlySet<UsageField> = new Set(["account", "group", "surface", "model"]);
const interned = new Map<string, string>();
const INTERN_LIMIT = 200_000;

/**
 * One detached copy per distinct value. The CSV reader cuts cells out of a 1 MiB chunk, and the
 * engine may keep such a substring as a view on the whole chunk: an account id kept as a map key
 * would then pin its chunk for the whole read (hundreds of MiB over a large log). A copy made
 * through JSON holds only its own characters; accounts, groups, surfaces and models repeat, so the
 * copies are few and the map lookup is all most rows pay.
 */
function intern(text: string): string {
  let kept = interned.get(text);
  if (kept === undefined) {
    if (interned.size >= INTERN_LIMIT) interned.clear();
    kept = JSON.parse(JSON.stringify(text)) as string;
    interned.set(kept, kept);
  }
  return kept;
}

async function* readCsvRows(chunks: AsyncIterable<string> | Iterable<string>, options: ReadUsageOptions): AsyncGenerator<UsageItem[]> {
  let headers: string[] | undefined;
  let columnIndex: Partial<Record<UsageField, number>> = {};
  let mapping: ColumnMapping = {};
  for await (const records of readCsvBatches(chunks)) {
    const out: UsageItem[] = [];
    for (const item of records) {
      if (!item.ok) {
        out.push(item);
        continue;
      }
      const { line, cells } = item.record;
      if (!headers) {
        headers = cells.map((c) => c.trim());
        mapping = resolveMapping(options, headers);
        const unknown = unknownColumns(mapping, headers);
        if (unknown.length > 0)
          throw new UsageMappingError(
            `mapped column(s) ${unknown.map((c) => JSON.stringify(c)).join(", ")} not in the header (${headers.join(", ")})`,
            mapping,
          );
        columnIndex = Object.fromEntries(Object.entries(mapping).map(([f, c]) => [f, headers!.indexOf(c!)]));
        continue;
      }
      if (cells.length !== headers.length) {
        out.push({
          ok: false,
          issue: {
            line,
            expected: `${headers.length} cells (as in the header)`,
            found: `${cells.length}`,
            message: `expected ${headers.length} cells as in the header, found ${cells.length}`,
          },
        });
        continue;
      }
      out.push(
        toItem(line, mapping, (field) => {
          const i = columnIndex[field];
          return i === undefined ? undefined : KEPT_TEXT.has(field) ? intern(cells[i]!) : cells[i];
        }),
      );
    }
    if (out.length > 0) yield out;
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
      yield {
        ok: false,
        issue: {
          line,
          expected: "one JSON object per line",
          found: shortFound(text),
          message: `expected one JSON object per line: ${error instanceof Error ? error.message : String(error)}`,
        },
      };
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
  if (missing.length > 0)
    throw new UsageMappingError(`no column mapped to ${missing.join(", ")} (columns: ${headers.join(", ")}); map it with field=column`, mapping);
  options.onMapping?.(mapping);
  return mapping;
}

const CONVERTERS: Record<UsageField, (raw: unknown) => Converted<unknown>> = {
  timestamp: toTimestamp,
  account: (raw) =>
    typeof raw === "string" && raw.trim() !== ""
      ? { ok: true, value: raw.trim() }
      : typeof raw === "number"
        ? { ok: true, value: String(raw) }
        : { ok: false, expected: "a non-empty account id or e-mail" },
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
      return {
        ok: false,
        issue: { line, column: mapping[field] ?? field, expected: converted.expected, found, message: `expected ${converted.expected}, found ${found}` },
      };
    }
    if (converted.value !== undefined) row[field] = converted.value;
  }
  // The converters already guarantee every type and bound of the schema but two: a finite timestamp
  // and the cache terms within the prompt. Checking those by hand spares a schema pass (and its
  // copy of the row) per row; anything off goes through the schema for its located message.
  if (Number.isFinite(row.timestamp) && (row.cachedInputTokens as number) + (row.cacheWriteTokens as number) <= (row.inputTokens as number))
    return { ok: true, line, row: row as UsageRow };
  const parsed = UsageRowSchema.safeParse(row);
  if (parsed.success) return { ok: true, line, row: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "") as UsageField;
  return { ok: false, issue: { line, column: mapping[field] ?? field, expected: issue.message, message: `expected ${issue.message}` } };
}
