/**
 * CSV cells a spreadsheet will not run (OWASP "CSV injection"): a text cell that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return is read by Excel, LibreOffice and Sheets as a formula
 * (`=HYPERLINK(…)` runs when the file is opened). Tracefold's CSV exports carry text from production
 * traces and reviewer comments, so every text cell is written with a leading `'` when it would be
 * read as a formula — the convention spreadsheets show as plain text.
 *
 * The escape is reversible, so an export imports back byte for byte: a cell is prefixed when it
 * matches `^'*[=+\-@\t\r]` (any leading quotes, then a formula character) and the importer strips
 * one `'` from a cell matching `^'+[=+\-@\t\r]`. A cell that genuinely begins `'=` is written `''=`
 * and read back as `'=`. Numbers are never escaped (a negative number is data, not a formula);
 * JSONL stays the raw format.
 */
const ESCAPED = /^'*[=+\-@\t\r]/;
const UNESCAPE = /^'+[=+\-@\t\r]/;

export function spreadsheetSafe(cell: string): string {
  return ESCAPED.test(cell) ? `'${cell}` : cell;
}

export function fromSpreadsheetSafe(cell: string): string {
  return UNESCAPE.test(cell) ? cell.slice(1) : cell;
}
