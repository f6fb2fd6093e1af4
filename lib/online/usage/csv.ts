import type { UsageIssue } from "./schema";

/** One CSV record: the 1-based line it starts on and its cells (quotes removed). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export type CsvItem = { ok: true; record: CsvRecord } | { ok: false; issue: UsageIssue };

const QUOTE = 34,
  LF = 10,
  CR = 13,
  COMMA = 44;

/**
 * Streaming RFC 4180 reader over text chunks (the caller reads the bytes and decodes them; chunks
 * may split anywhere, even inside a quoted field or a CRLF). Memory is bounded by the longest
 * record plus one chunk, never the file.
 *
 * Accepted: `,` separators, `"` quoting with `""` escapes, newlines inside quotes, LF or CRLF line
 * ends (a lone CR ends a record too), a UTF-8 BOM, blank lines (skipped). Errors, located by line:
 * text after a closing quote (`"a"b`), and a quote left open at the end of the input (reading stops
 * there). A quote inside an unquoted cell is kept literally (what spreadsheets export for `5" screen`).
 *
 * Yields arrays of up to `BATCH` items, not one item per `await`: millions of rows would otherwise
 * pay an async-generator round trip each. Speed: a line without `"` and without an inner CR — the
 * usual usage-log row — is found with `indexOf` and cut with `split(",")`; only lines with quotes
 * (or a lone CR) go through the character-by-character state machine, which may read past the line
 * (a quoted newline) and waits for the next chunk when the record is not complete yet.
 */
export async function* readCsvBatches(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<CsvItem[]> {
  let rest = "";
  let line = 1;
  let first = true;
  for await (let chunk of chunks) {
    if (first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      if (chunk.length > 0) first = false;
    }
    const text = rest.length > 0 ? rest + chunk : chunk;
    let p = 0;
    for (;;) {
      const out: CsvItem[] = [];
      const state = scan(text, p, line, false, out);
      line = state.line;
      p = state.end;
      if (out.length > 0) yield out;
      if (state.stop) return;
      if (!state.full) break;
    }
    rest = text.slice(p);
  }
  let p = 0;
  while (p < rest.length) {
    const out: CsvItem[] = [];
    const state = scan(rest, p, line, true, out);
    line = state.line;
    p = state.end;
    if (out.length > 0) yield out;
    if (state.stop || !state.full) return;
  }
}

/** One item at a time, for callers that read a few rows (previews). */
export async function* readCsv(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<CsvItem> {
  for await (const batch of readCsvBatches(chunks)) yield* batch;
}

/**
 * Records per batch: enough to make the per-batch `await` negligible, few enough that a batch dies
 * young (a whole 1 MiB chunk of row objects held at once would survive the young-generation
 * collections and grow the old generation — a higher peak RSS for nothing).
 */
const BATCH = 1_024;

/**
 * Reads the complete records of `text` from `from`, appending up to `BATCH` of them to `out`.
 * Returns where the unread remainder starts and the line it starts on; `full` when it stopped at
 * the batch size (call again), `stop` when an unclosed quote ended the input.
 */
function scan(text: string, from: number, startLine: number, final: boolean, out: CsvItem[]): { end: number; line: number; stop: boolean; full: boolean } {
  let p = from;
  let line = startLine;
  let nextQuote = -2;
  let nextCR = -2;
  const length = text.length;
  while (p < length) {
    if (out.length >= BATCH) return { end: p, line, stop: false, full: true };
    const nl = text.indexOf("\n", p);
    if (nextQuote !== -1 && nextQuote < p) nextQuote = text.indexOf('"', p);
    if (nextCR !== -1 && nextCR < p) nextCR = text.indexOf("\r", p);
    const end = nl === -1 ? length : nl;
    const quoted = nextQuote !== -1 && nextQuote < end;
    const innerCR = nextCR !== -1 && nextCR < end - 1;
    if (nl !== -1 && !quoted && !innerCR) {
      const stop = nextCR === end - 1 ? end - 1 : end;
      if (stop > p) out.push({ ok: true, record: { line, cells: text.slice(p, stop).split(",") } });
      line++;
      p = nl + 1;
      continue;
    }
    if (nl === -1 && !final && !quoted) break;
    const record = slowRecord(text, p, line, final);
    if (!record) break;
    if (record.item) out.push(record.item);
    if (record.stop) return { end: length, line, stop: true, full: false };
    line += record.lines;
    p = record.end;
  }
  return { end: p, line, stop: false, full: false };
}

/**
 * The character state machine for one record starting at `p` (a line with quotes or a lone CR).
 * Null when the text ends before the record does and more input may come.
 */
function slowRecord(text: string, p: number, line: number, final: boolean): { end: number; lines: number; item?: CsvItem; stop?: boolean } | null {
  const cells: string[] = [];
  let cell = "";
  let inQuotes = false;
  let afterQuote = false;
  let cellStarted = false;
  let lines = 0;
  let broken: UsageIssue | undefined;
  const finish = (end: number, lineEnds: number) => {
    cells.push(cell);
    const item: CsvItem | undefined = broken
      ? { ok: false, issue: broken }
      : cells.length === 1 && cells[0] === "" && !cellStarted
        ? undefined
        : { ok: true, record: { line, cells } };
    return { end, lines: lines + lineEnds, ...(item ? { item } : {}) };
  };
  let i = p;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (inQuotes) {
      if (code === QUOTE) {
        if (i + 1 === text.length && !final) return null; // maybe the first half of a `""` escape
        if (text.charCodeAt(i + 1) === QUOTE) {
          cell += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        afterQuote = true;
        i++;
        continue;
      }
      const close = text.indexOf('"', i);
      const upTo = close === -1 ? text.length : close;
      const part = text.slice(i, upTo);
      for (let nl = part.indexOf("\n"); nl !== -1; nl = part.indexOf("\n", nl + 1)) lines++;
      cell += part;
      i = upTo;
      continue;
    }
    if (code === COMMA) {
      cells.push(cell);
      cell = "";
      afterQuote = false;
      cellStarted = true;
    } else if (code === LF || code === CR) {
      if (code === CR) {
        if (i + 1 === text.length && !final) return null; // a CRLF cut between chunks
        return finish(text.charCodeAt(i + 1) === LF ? i + 2 : i + 1, 1);
      }
      return finish(i + 1, 1);
    } else if (afterQuote) {
      const ch = text[i]!;
      broken ??= {
        line: line + lines,
        column: `#${cells.length + 1}`,
        expected: "a comma or the end of the line after a closing quote",
        found: ch,
        message: `expected a comma or the end of the line after a closing quote, found ${JSON.stringify(ch)}`,
      };
    } else if (code === QUOTE && cell === "") {
      inQuotes = true;
      cellStarted = true;
    } else {
      cell += text[i]!;
      cellStarted = true;
    }
    i++;
  }
  if (!final) return null;
  if (inQuotes)
    return {
      end: text.length,
      lines,
      stop: true,
      item: {
        ok: false,
        issue: {
          line,
          column: `#${cells.length + 1}`,
          expected: "a closing quote",
          message: `expected a closing quote for the cell opened on line ${line}, found the end of the input`,
        },
      },
    };
  return finish(text.length, 0);
}
