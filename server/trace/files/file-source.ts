import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveKindOf } from "@/lib/trace/archive/archive-limits";
import { HEAD_BYTES, SourceError, sourceFromText, type TraceSource } from "@/lib/trace/source";
import { expandArchive } from "./expand-archive";

/** Largest file read as one string (document formats). JSONL is streamed and has no such cap. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/**
 * A `TraceSource` over a file on disk: the head for detection, streamed lines for JSONL, the whole
 * text for JSON documents. Invalid UTF-8 is reported with the line it occurs on. A compressed file
 * (gzip, or an Inspect `.eval` zip) is expanded within the zip-bomb limits (expand-archive.ts, which
 * throws ArchiveError) and read from memory.
 */
export async function sourceFromFile(path: string, name: string = path): Promise<TraceSource> {
  const { size } = await stat(path);
  if (await isArchive(path)) return await expandedSource(path, name);
  return { name, size, head: await readHead(path), text: () => readText(path, size), lines: () => readLines(path) };
}

async function isArchive(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const bytes = new Uint8Array(4);
    await handle.read(bytes, 0, 4, 0);
    return archiveKindOf(bytes) !== undefined;
  } finally {
    await handle.close();
  }
}

async function expandedSource(path: string, name: string): Promise<TraceSource> {
  const expanded = join(tmpdir(), `tracefold-${randomUUID()}.expanded`);
  try {
    await expandArchive(path, expanded, name);
    return sourceFromText(name, await readFile(expanded, "utf8"));
  } finally {
    await rm(expanded, { force: true });
  }
}

async function readHead(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    // Not fatal: the head may end inside a multi-byte character.
    return new TextDecoder("utf-8").decode(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

async function readText(path: string, size: number): Promise<string> {
  if (size > MAX_DOCUMENT_BYTES) {
    throw new SourceError(
      `file is ${(size / 1048576).toFixed(0)} MB; JSON documents over ${MAX_DOCUMENT_BYTES / 1048576} MB are not supported (JSONL formats are streamed without a limit)`,
    );
  }
  let text = "";
  for await (const line of readLines(path)) text += `${line}\n`;
  return text;
}

/** Streams decoded lines; a chunk boundary inside a UTF-8 sequence is handled by `stream: true`. */
async function* readLines(path: string): AsyncIterable<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending = "";
  let line = 1;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    let text: string;
    try {
      text = decoder.decode(chunk as Buffer, { stream: true });
    } catch {
      const bad = firstInvalidUtf8(chunk as Buffer);
      throw new SourceError("invalid UTF-8: the file is not valid UTF-8 text", line + countNewlines(pending) + countNewlineBytes(chunk as Buffer, bad));
    }
    pending += text;
    let start = 0;
    let end = pending.indexOf("\n", start);
    while (end !== -1) {
      yield stripCr(pending.slice(start, end));
      line += 1;
      start = end + 1;
      end = pending.indexOf("\n", start);
    }
    pending = pending.slice(start);
  }
  try {
    pending += decoder.decode();
  } catch {
    throw new SourceError("invalid UTF-8: the file ends inside a multi-byte character", line);
  }
  if (pending) yield stripCr(pending);
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (the chunk length if none). */
function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return bytes.length; // sequence continues in the next chunk
      if ((c & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}

function countNewlineBytes(bytes: Buffer, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === 10) n++;
  return n;
}
