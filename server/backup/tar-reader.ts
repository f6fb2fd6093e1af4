import { createHash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";

/** What the reader saw of one entry: where it was written, its size and sha256. */
export interface ExtractedEntry {
  path: string;
  bytes: number;
  sha256: string;
}

/** The archive is damaged or not what we wrote; the message says where. */
export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveError";
  }
}

/**
 * Reads a ustar stream and writes every entry to the file `destination(name)` names (which
 * refuses names it does not expect), hashing as it goes. Fails with a located ArchiveError on a
 * bad header checksum, an entry cut short, or a stream that ends before the end-of-archive marker
 * — so a truncated archive is never taken for a shorter valid one.
 */
export async function extractTar(input: AsyncIterable<Buffer>, destination: (name: string) => string): Promise<Map<string, ExtractedEntry>> {
  const entries = new Map<string, ExtractedEntry>();
  let pending: Buffer = Buffer.alloc(0);
  let offset = 0; // archive offset of pending[0]
  let current: { name: string; size: number; left: number; pad: number; out: WriteStream; hash: ReturnType<typeof createHash>; path: string } | null = null;
  let ended = false;
  let writeError: Error | undefined;
  const take = (n: number) => {
    const chunk = pending.subarray(0, n);
    pending = pending.subarray(n);
    offset += n;
    return chunk;
  };
  try {
    for await (const chunk of input) {
      if (ended) continue;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (!ended) {
        if (current) {
          if (current.left > 0) {
            if (pending.length === 0) break;
            const part = take(Math.min(current.left, pending.length));
            current.left -= part.length;
            current.hash.update(part);
            if (!current.out.write(part)) await once(current.out, "drain");
            continue;
          }
          if (pending.length < current.pad) break;
          take(current.pad);
          if (writeError) throw writeError;
          current.out.end();
          await once(current.out, "finish");
          entries.set(current.name, { path: current.path, bytes: current.size, sha256: current.hash.digest("hex") });
          current = null;
          continue;
        }
        if (pending.length < 512) break;
        const at = offset;
        const header = take(512);
        if (header.every((b) => b === 0)) {
          ended = true;
          break;
        }
        const { name, size, type } = parseHeader(header, at);
        if (type !== "0" && type !== "\0") throw new ArchiveError(`unexpected entry type ${JSON.stringify(type)} for ${name} at byte ${at}`);
        if (entries.has(name)) throw new ArchiveError(`entry ${name} appears twice (second at byte ${at})`);
        const path = destination(name);
        const out = createWriteStream(path);
        // A write error is kept and rethrown below; a stream we destroy on failure must not crash the process.
        out.on("error", (error) => (writeError ??= error));
        current = { name, size, left: size, pad: (512 - (size % 512)) % 512, out, hash: createHash("sha256"), path };
      }
    }
  } catch (error) {
    current?.out.destroy();
    throw error;
  }
  if (current) {
    current.out.destroy();
    throw new ArchiveError(`the archive is truncated: entry ${current.name} ends after ${current.size - current.left} of its ${current.size} bytes`);
  }
  if (!ended) throw new ArchiveError(`the archive is truncated: it ends at byte ${offset} without the end-of-archive marker`);
  return entries;
}

function parseHeader(header: Buffer, at: number): { name: string; size: number; type: string } {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  const stored = parseInt(header.subarray(148, 156).toString("ascii").replace(/[\0 ]/g, ""), 8);
  if (stored !== sum) throw new ArchiveError(`corrupted tar header at byte ${at} (checksum ${stored} ≠ ${sum})`);
  const name = header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
  const size = parseInt(header.subarray(124, 136).toString("ascii").replace(/[\0 ]/g, ""), 8);
  if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveError(`bad size in the tar header of ${name} at byte ${at}`);
  return { name, size, type: header.subarray(156, 157).toString("ascii") };
}
