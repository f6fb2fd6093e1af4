import type { Readable } from "node:stream";
import type { BlobKind } from "./blob-key";

export { BlobNotFoundError, sha256OfFile, type BlobKind } from "./blob-key";
export { dataDir } from "./data-dir";
export { localBlobStore } from "./local-blob-store";

/** What a put reports: the key, the content's sha256, and whether these bytes were new to the store. */
export interface PutResult {
  key: string;
  sha256: string;
  created: boolean;
}

/** A stored blob as a listing or `stat` reports it. */
export interface BlobInfo {
  key: string;
  bytes: number;
  /**
   * When the blob was last written. A put of bytes already stored counts as a write (see putFile):
   * the unreferenced-blob sweep (server/storage/sweep-unreferenced-blobs.ts) spares blobs written
   * within its grace period, and an import that reuses an old blob must not lose it.
   */
  lastModified: Date;
}

/**
 * Content-addressed storage for raw uploads and sidecars: a blob lives under `<kind>/<sha[0:2]>/<sha>`
 * (see blob-key.ts). Same bytes, same key, so re-uploading a file is detected and never stored
 * twice. Storage-neutral on purpose: callers hand in a file or bytes and get bytes or a stream
 * back, never a filesystem path, so local disk (the embedded default, local-blob-store.ts) and
 * S3-compatible object storage (s3-blob-store.ts) are interchangeable; `getBlobStore()`
 * (configured-blob-store.ts) picks one from the environment.
 */
export interface BlobStore {
  /**
   * Stores a file's bytes under their sha256 (read as a stream, never whole into memory). When the
   * bytes are already stored (`created: false`) the blob's lastModified is brought forward to about
   * now (local disk: its mtime; S3: the object is uploaded again once it is older than a few
   * minutes), so a sweep never takes a blob an import has just put, however old its first copy.
   */
  putFile(path: string, kind: BlobKind): Promise<PutResult>;
  putBytes(bytes: Uint8Array, kind: BlobKind): Promise<PutResult>;
  exists(key: string): Promise<boolean>;
  /** Size and last write of one blob, or null when the key holds nothing. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Every blob of a kind, in no particular order; only well-formed keys (never a put's temp file). */
  list(kind: BlobKind): AsyncIterable<BlobInfo>;
  /** The whole blob; throws BlobNotFoundError when the key holds nothing. */
  readBytes(key: string): Promise<Buffer>;
  /** A stream over the blob and its size; throws BlobNotFoundError when the key holds nothing. */
  openRead(key: string): Promise<{ bytes: number; stream: Readable }>;
  /** Deletes the blob; removing a missing key is not an error. */
  remove(key: string): Promise<void>;
}
