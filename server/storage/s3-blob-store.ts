import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { assertBlobKey, BlobNotFoundError, blobKey, sha256OfBytes, sha256OfFile, type BlobKind } from "./blob-key";
import type { BlobStore, PutResult } from "./blob-store";
import { readText, S3Error, s3Failure, s3Request } from "./s3-request";
import type { S3Settings } from "./storage-config";

/**
 * Blobs as objects in an S3-compatible bucket, under the same keys as on local disk. Same bytes are
 * stored once: a put HEADs the key first and skips the upload when the object exists (the key is
 * the sha256, so an existing object already holds these bytes). Every PUT carries the content's
 * sha256 as its signed payload hash, so the server refuses bytes that changed on the way.
 */
export function s3BlobStore(settings: S3Settings): BlobStore {
  const exists = async (key: string) => {
    assertBlobKey(key);
    const response = await s3Request(settings, { method: "HEAD", key });
    response.body.resume();
    if (response.status === 200) return true;
    if (response.status === 404) return false;
    throw await s3Failure(`HEAD ${key}`, response);
  };
  const put = async (kind: BlobKind, sha256: string, bytes: number, body: () => Buffer | Readable): Promise<PutResult> => {
    const key = blobKey(kind, sha256);
    if (await exists(key)) return { key, sha256, created: false };
    const response = await s3Request(settings, { method: "PUT", key, payloadSha256: sha256, contentLength: bytes, body: body() });
    if (response.status !== 200) throw await s3Failure(`PUT ${key}`, response);
    await readText(response.body);
    return { key, sha256, created: true };
  };
  const get = async (key: string) => {
    assertBlobKey(key);
    const response = await s3Request(settings, { method: "GET", key });
    if (response.status === 404) {
      // NoSuchKey is a missing blob; NoSuchBucket (a misconfigured store) must not pass for one.
      const text = await readText(response.body);
      const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
      if (code === undefined || code === "NoSuchKey") throw new BlobNotFoundError(key);
      throw new S3Error(`GET ${key}`, 404, code, /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? "");
    }
    if (response.status !== 200) throw await s3Failure(`GET ${key}`, response);
    return response;
  };
  return {
    exists,
    putFile: async (path, kind) => put(kind, await sha256OfFile(path), (await stat(path)).size, () => createReadStream(path, { highWaterMark: 1 << 20 })),
    putBytes: (bytes, kind) => put(kind, sha256OfBytes(bytes), bytes.byteLength, () => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    readBytes: async (key) => {
      const chunks: Buffer[] = [];
      for await (const chunk of (await get(key)).body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    openRead: async (key) => {
      const response = await get(key);
      return { bytes: Number(response.headers["content-length"] ?? 0), stream: response.body };
    },
    remove: async (key) => {
      assertBlobKey(key);
      const response = await s3Request(settings, { method: "DELETE", key });
      if (response.status !== 204 && response.status !== 200 && response.status !== 404) throw await s3Failure(`DELETE ${key}`, response);
      response.body.resume();
    },
  };
}
