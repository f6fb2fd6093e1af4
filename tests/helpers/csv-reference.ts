/**
 * The character-at-a-time CSV reader lib/online/usage/csv.ts used before it was made fast (one item per
 * await, one string append per character): kept only as the oracle of the differential test, since
 * its behaviour (cells, line numbers, located errors) is the contract the fast reader must keep.
 */
import type { UsageIssue } from "@/lib/online/usage/schema";
import type { CsvItem } from "@/lib/online/usage/csv";

/**
 * Streaming RFC 4180 reader over text chunks (the caller reads the bytes and decodes them; chunks
 * may split anywhere, even inside a quoted field or a CRLF). Memory is bounded by the longest
 * record, never the file.
 *
 * Accepted: `,` separators, `"` quoting with `""` escapes, newlines inside quotes, LF or CRLF line
 * ends, a UTF-8 BOM, blank lines (skipped). Errors, located by line: text after a closing quote
 * (`"a"b`), and a quote left open at the end of the input. A quote inside an unquoted cell is kept
 * literally (what spreadsheets export for `5" screen`).
 */
export async function* referenceReadCsv(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<CsvItem> {
  let cells: string[] = [];
  let cell = "";
  let inQuotes = false;
  let afterQuote = false;
  let cellStarted = false;
  let line = 1;
  let recordLine = 1;
  let first = true;
  let pendingCR = false;
  let splitQuote = false;
  let broken: UsageIssue | undefined;

  const endRecord = (): CsvItem | undefined => {
    cells.push(cell);
    const out: CsvItem | undefined = broken
      ? { ok: false, issue: broken }
      : cells.length === 1 && cells[0] === "" && !cellStarted
        ? undefined
        : { ok: true, record: { line: recordLine, cells } };
    cells = [];
    cell = "";
    afterQuote = false;
    cellStarted = false;
    broken = undefined;
    return out;
  };

  for await (let chunk of chunks) {
    if (first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      if (chunk.length > 0) first = false;
    }
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i]!;
      if (pendingCR) {
        pendingCR = false;
        if (ch === "\n") continue;
      }
      if (inQuotes) {
        if (ch === '"') {
          if (chunk[i + 1] === '"') {
            cell += '"';
            i++;
          } else {
            // At a chunk's end this may be the first half of a `""` escape: the next chunk decides.
            splitQuote = i + 1 === chunk.length;
            inQuotes = false;
            afterQuote = true;
          }
        } else {
          if (ch === "\n") line++;
          cell += ch;
        }
        continue;
      }
      if (splitQuote) {
        splitQuote = false;
        if (ch === '"') {
          cell += '"';
          inQuotes = true;
          afterQuote = false;
          continue;
        }
      }
      if (ch === ",") {
        cells.push(cell);
        cell = "";
        afterQuote = false;
        cellStarted = true;
      } else if (ch === "\n" || ch === "\r") {
        if (ch === "\r") pendingCR = true;
        const item = endRecord();
        if (item) yield item;
        line++;
        recordLine = line;
      } else if (afterQuote) {
        broken ??= {
          line,
          column: `#${cells.length + 1}`,
          expected: "a comma or the end of the line after a closing quote",
          found: ch,
          message: `expected a comma or the end of the line after a closing quote, found ${JSON.stringify(ch)}`,
        };
      } else if (ch === '"' && cell === "") {
        inQuotes = true;
        cellStarted = true;
      } else {
        cell += ch;
        cellStarted = true;
      }
    }
  }
  if (inQuotes) {
    yield {
      ok: false,
      issue: {
        line: recordLine,
        column: `#${cells.length + 1}`,
        expected: "a closing quote",
        message: `expected a closing quote for the cell opened on line ${recordLine}, found the end of the input`,
      },
    };
    return;
  }
  const item = endRecord();
  if (item) yield item;
}
