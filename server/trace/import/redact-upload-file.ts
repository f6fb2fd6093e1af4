import { open } from "node:fs/promises";
import { redactLines, type LineRedaction, type RedactOptions } from "@/lib/redact";
import { readRawLines, type RawLine } from "../files/read-raw-lines";

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
    for await (const line of readRawLines(inPath)) {
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

/** What redacting the file would report, without writing anything (`tracefold redact --dry-run`). */
export async function scanFileSecrets(path: string, options: RedactOptions = {}): Promise<LineRedaction[]> {
  const report: LineRedaction[] = [];
  async function* texts(): AsyncIterable<string> {
    for await (const line of readRawLines(path)) yield line.text;
  }
  for await (const _ of redactLines(texts(), report, options)) void _;
  return report;
}
