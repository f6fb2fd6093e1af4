import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

/** The body went over the size limit; nothing of it is kept. */
export class UploadTooLargeError extends Error {
  constructor(public readonly limitBytes: number) {
    super(`upload exceeds ${limitBytes} bytes`);
    this.name = "UploadTooLargeError";
  }
}

/**
 * Streams a request body to `path` chunk by chunk, so a 500 MB trace never sits in memory. Counts
 * bytes as they pass and aborts (deleting the partial file) as soon as `maxBytes` is exceeded —
 * Content-Length can be absent or wrong, so the count is what's enforced.
 */
export async function writeBodyToFile(body: ReadableStream<Uint8Array>, path: string, maxBytes: number): Promise<number> {
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(new UploadTooLargeError(maxBytes));
      else callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), limit, createWriteStream(path, { flags: "wx" }));
    return bytes;
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}
