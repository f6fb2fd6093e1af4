import { createReadStream } from "node:fs";

/** One raw line of a file: its bytes without the terminator, the terminator, and the decoded text. */
export interface RawLine {
  bytes: Buffer;
  eol: Buffer;
  text: string;
}

const CRLF = Buffer.from("\r\n");
const LF = Buffer.from("\n");
const NONE = Buffer.alloc(0);

/**
 * The file's lines as bytes (terminator apart) and as text; a line is joined from chunks once.
 * Lines end at `\n`, a `\r` before it belongs to the terminator; a last line without `\n` is kept
 * whole. The upload page's preview (lib/redact/preview-redaction.ts) splits the same way.
 */
export async function* readRawLines(path: string): AsyncIterable<RawLine> {
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
