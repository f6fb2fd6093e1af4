import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** What a blob is: a raw upload (redacted or, when an admin keeps them, the original) or a sidecar. */
export type BlobKind = "uploads" | "sidecars";

const KEY = /^(uploads|sidecars)\/[0-9a-f]{2}\/[0-9a-f]{64}$/;

/**
 * The storage key of content with this sha256: `<kind>/<sha[0:2]>/<sha>`, the same on every
 * backend, so rows written against local disk stay valid after moving the blobs to S3 (or back).
 */
export function blobKey(kind: BlobKind, sha256: string): string {
  return `${kind}/${sha256.slice(0, 2)}/${sha256}`;
}

/** Whether a name is a well-formed key (listings skip anything else: temp files, foreign objects). */
export function isBlobKey(key: string): boolean {
  return KEY.test(key);
}

/** Refuses anything that is not a well-formed key: no path or object name is built from other input. */
export function assertBlobKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
}

/** The sha256 a key is named after (its last segment). */
export function shaOfKey(key: string): string {
  assertBlobKey(key);
  return key.slice(key.lastIndexOf("/") + 1);
}

export function sha256OfBytes(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A key that should hold a blob holds nothing (lost data, or a store pointed at the wrong place). */
export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`blob ${key} is missing from the store`);
    this.name = "BlobNotFoundError";
  }
}
