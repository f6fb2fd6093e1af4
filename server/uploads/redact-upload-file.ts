import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { redactLines, type LineRedaction, type RedactOptions } from "@/lib/redact";

interface RawLine {
  bytes: Buffer;
  eol: Buffer;
  text: string;
}

const CRLF = Buffer.from("\r\n");
const LF = Buffer.from("\n");
const NONE = Buffer.alloc(0);
const FLUSH_BYTES = 1 << 20;

/**
 * Writes a redacted copy of the file at `inPath` to `outPath`, line by line (redactLines), and
 * returns the located report. Every line without a secret is written back as its original bytes
 * with its original line ending (LF, CRLF or none at the end), so a file without secrets comes out
 * byte-identical, the format is unchanged and the importer's line numbers still point at the same
 * lines. Whole-document JSON is one or more lines like any other: a secret inside a JSON string
 * never spans a raw line (a PEM key there is one string with `\n` escapes, which lib/redact finds).
 */
export async function redactUploadFile(inPath: string, outPath: string, options: RedactOptions = {}): Promise<LineRedaction[]> {
  const report: LineRedaction[] = [];
  const pending: RawLine[] = [];
  async function* texts(): AsyncIterable<string> {
    for await (const line of readLines(inPath)) {
      pending.push(line);
      yield line.text;
    }
  }
  const out = await open(outPath, "wx");
  try {
    let buffered: Buffer[] = [];
    let size = 0;
    for await (const text of redactLines(texts(), report, options)) {
      const line = pending.shift()!;
      const bytes = text === line.text ? line.bytes : Buffer.from(text, "utf8");
      buffered.push(bytes, line.eol);
      size += bytes.length + line.eol.length;
      if (size >= FLUSH_BYTES) {
        await out.write(Buffer.concat(buffered));
        buffered = [];
        size = 0;
      }
    }
    if (buffered.length > 0) await out.write(Buffer.concat(buffered));
  } finally {
    await out.close();
  }
  return report;
}

/** The file's lines as bytes (terminator apart) and as text; a line is joined from chunks once. */
async function* readLines(path: string): AsyncIterable<RawLine> {
  // ignoreBOM keeps a leading BOM in the text, so a redacted first line is re-encoded with it.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let parts: Buffer[] = [];
  const make = (bytes: Buffer, eol: Buffer): RawLine => ({ bytes, eol, text: decoder.decode(bytes) });
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let at = chunk.indexOf(10, from); at !== -1; at = chunk.indexOf(10, from)) {
      parts.push(chunk.subarray(from, at));
      let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      parts = [];
      from = at + 1;
      const crlf = bytes.length > 0 && bytes[bytes.length - 1] === 13;
      if (crlf) bytes = bytes.subarray(0, bytes.length - 1);
      yield make(bytes, crlf ? CRLF : LF);
    }
    if (from < chunk.length) parts.push(chunk.subarray(from));
  }
  if (parts.length > 0) yield make(Buffer.concat(parts), NONE);
}
