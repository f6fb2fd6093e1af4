import { ReviewLabelSchema, type ReviewLabel } from "../label-schema";
import { CSV_COLUMNS, columnFor, type CsvColumn } from "./csv-columns";
import { fromSpreadsheetSafe, spreadsheetSafe } from "../../util/spreadsheet-safe";
import { locateIssues, type ImportError } from "./issues";
import type { ParsedRecord } from "./jsonl";

/**
 * CSV export/import (RFC 4180: comma-separated, `"` quoting with `""` escapes, quoted cells may
 * hold commas, quotes, CR and LF, which are kept byte for byte). Header row first; rows end with
 * `\n`. Numbers are written with JavaScript's shortest round-trip form, so a parse gives the same
 * double back. Text cells are spreadsheet-safe (lib/util/spreadsheet-safe.ts): one that a
 * spreadsheet would run as a formula gets a leading `'`, which the import strips again, so an
 * export imports back exactly. JSONL is the raw format.
 */
export function exportCsv(labels: readonly ReviewLabel[]): string {
  const rows = [CSV_COLUMNS.map((c) => c.name)];
  for (const label of labels) {
    const canonical = ReviewLabelSchema.parse(label) as unknown as Record<string, unknown>;
    rows.push(CSV_COLUMNS.map((c) => (c.type === "string" ? spreadsheetSafe(cellOf(dig(canonical, c.path))) : cellOf(dig(canonical, c.path)))));
  }
  return rows.map((cells) => `${cells.map(quote).join(",")}\n`).join("");
}

export function parseCsv(text: string): { records: ParsedRecord[]; errors: ImportError[] } {
  const rows = splitCsv(text);
  const errors: ImportError[] = [];
  const records: ParsedRecord[] = [];
  const header = rows[0];
  if (!header) return { records, errors: [{ line: 1, field: "(header)", expected: CSV_COLUMNS.map((c) => c.name).join(","), message: "the file is empty" }] };
  const columns: (CsvColumn | undefined)[] = header.cells.map((name) => CSV_COLUMNS.find((c) => c.name === name));
  header.cells.forEach((name, i) => {
    if (!columns[i])
      errors.push({ line: 1, field: name, expected: `one of the columns ${CSV_COLUMNS.map((c) => c.name).join(", ")}`, message: `unknown column ${name}` });
  });
  for (const required of ["kind", "labelId", "version"]) {
    if (!header.cells.includes(required))
      errors.push({ line: 1, field: required, expected: "a column of that name", message: `column ${required} is missing` });
  }
  if (errors.length > 0) return { records, errors };
  for (const row of rows.slice(1)) {
    if (row.cells.length === 1 && row.cells[0] === "") continue;
    if (row.cells.length !== header.cells.length) {
      errors.push({ line: row.line, field: "(row)", expected: `${header.cells.length} cells`, message: `the row has ${row.cells.length} cells` });
      continue;
    }
    const object: Record<string, unknown> = {};
    row.cells.forEach((cell, i) => {
      const column = columns[i]!;
      if (cell === "" && column.type !== "nullable-number") return;
      put(object, column.path, valueOf(column.type === "string" ? fromSpreadsheetSafe(cell) : cell, column));
    });
    const parsed = ReviewLabelSchema.safeParse(object);
    if (parsed.success) records.push({ line: row.line, label: parsed.data });
    else errors.push(...locateIssues(parsed.error.issues, row.line, columnFor));
  }
  return { records, errors };
}

function cellOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : String(value);
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** Typed cell values; a malformed number or boolean stays text so the schema reports it with its column. */
function valueOf(cell: string, column: CsvColumn): unknown {
  if (column.type === "nullable-number" && cell === "") return null;
  if ((column.type === "number" || column.type === "nullable-number") && /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(cell)) return Number(cell);
  if (column.type === "boolean" && (cell === "true" || cell === "false")) return cell === "true";
  return cell;
}

function dig(object: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = object;
  for (const key of path) value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function put(object: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let target = object;
  for (const key of path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
  target[path.at(-1)!] = value;
}

/** Splits CSV text into rows of cells, with the 1-based line each row starts on. */
export function splitCsv(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRow = () => {
    cells.push(cell);
    rows.push({ line: start, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        cell += c;
      }
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === ",") (cells.push(cell), (cell = ""));
    else if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      if (c === "\r") i++;
      endRow();
      start = ++line;
    } else cell += c;
  }
  if (cell !== "" || cells.length > 0) endRow();
  return rows;
}
