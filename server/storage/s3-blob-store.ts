import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { assertBlobKey, BlobNotFoundError, blobKey, isBlobKey, sha256OfBytes, sha256OfFile, type BlobKind } from "./blob-key";
import type { BlobInfo, BlobStore, PutResult } from "./blob-store";
import { readText, S3Error, s3Failure, s3Request } from "./s3-request";
import type { S3Settings } from "./storage-config";

/**
 * An existing object older than this is uploaded again by a put of the same bytes, so its
 * LastModified is recent (see BlobStore.putFile). A HEAD cannot refresh it, and a copy onto itself
 * does not move it on every S3-compatible server; a PUT always does. Far below the sweep's grace
 * period (an hour by default), and it costs an upload only when the same bytes come again later.
 */
export const S3_REFRESH_AFTER_MS = 10 * 60_000;

/**
 * Blobs as objects in an S3-compatible bucket, under the same keys as on local disk. Same bytes are
 * stored once: a put HEADs the key first and skips the upload when the object exists with their
 * size and is recent (the key is the sha256, so an existing object already holds these bytes).
 * Every PUT carries the content's sha256 as its signed payload hash, so the server refuses bytes
 * that changed on the way.
 *
 * Puts of the same bytes at once (a replay folding duplicate payloads, overlapping runs) all
 * succeed: in one process they share one HEAD and PUT (the first reports `created`, the others
 * do not); across processes, a PUT the server refuses while the object is there, with these bytes'
 * size and written within S3_REFRESH_AFTER_MS, lost a race to another writer of the same bytes and
 * counts as done (servers that limit how often one object is rewritten answer 429 or 503).
 */
export function s3BlobStore(settings: S3Settings): BlobStore {
  const statBlob = async (key: string): Promise<BlobInfo | null> => {
    assertBlobKey(key);
    const response = await s3Request(settings, { method: "HEAD", key });
    response.body.resume();
    if (response.status === 404) return null;
    if (response.status !== 200) throw await s3Failure(`HEAD ${key}`, response);
    return { key, bytes: Number(response.headers["content-length"] ?? 0), lastModified: dateOrNow(response.headers["last-modified"]) };
  };
  const exists = async (key: string) => (await statBlob(key)) !== null;
  const upload = async (key: string, sha256: string, bytes: number, body: () => Buffer | Readable): Promise<boolean> => {
    const holds = (info: BlobInfo | null) => info !== null && info.bytes === bytes && Date.now() - info.lastModified.getTime() < S3_REFRESH_AFTER_MS;
    const existing = await statBlob(key);
    if (holds(existing)) return false;
    const response = await s3Request(settings, { method: "PUT", key, payloadSha256: sha256, contentLength: bytes, body: body() });
    if (response.status !== 200) {
      const failure = await s3Failure(`PUT ${key}`, response);
      if (holds(await statBlob(key).catch(() => null))) return false;
      throw failure;
    }
    await readText(response.body);
    return existing === null || existing.bytes !== bytes;
  };
  const inFlight = new Map<string, Promise<PutResult>>();
  const put = async (kind: BlobKind, sha256: string, bytes: number, body: () => Buffer | Readable): Promise<PutResult> => {
    const key = blobKey(kind, sha256);
    const running = inFlight.get(key);
    if (running) return { ...(await running), created: false };
    const mine = upload(key, sha256, bytes, body).then((created) => ({ key, sha256, created }));
    inFlight.set(key, mine);
    try {
      return await mine;
    } finally {
      inFlight.delete(key);
    }
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
    stat: statBlob,
    list: (kind) => listObjects(settings, kind),
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

/**
 * ListObjectsV2 under `<kind>/`, page by page (up to 1,000 keys each, following
 * NextContinuationToken), yielding well-formed keys only.
 */
async function* listObjects(settings: S3Settings, kind: BlobKind): AsyncIterable<BlobInfo> {
  let token: string | undefined;
  do {
    const query: Record<string, string> = { "list-type": "2", prefix: `${kind}/` };
    if (token !== undefined) query["continuation-token"] = token;
    const response = await s3Request(settings, { method: "GET", query });
    if (response.status !== 200) throw await s3Failure(`LIST ${kind}/`, response);
    const page = parseListPage(await readText(response.body));
    for (const info of page.contents) if (isBlobKey(info.key)) yield info;
    token = page.truncated ? page.nextToken : undefined;
    if (page.truncated && token === undefined) throw new Error(`S3 LIST ${kind}/: a truncated page without a NextContinuationToken`);
  } while (token !== undefined);
}

/** The parts of a ListBucketResult document the sweep needs (keys are XML-escaped text). */
export function parseListPage(xml: string): { contents: BlobInfo[]; truncated: boolean; nextToken: string | undefined } {
  const text = (element: string, name: string) => {
    const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(element);
    return match ? unescapeXml(match[1]!) : undefined;
  };
  const contents: BlobInfo[] = [];
  for (const [, element] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
    const key = text(element!, "Key");
    if (key === undefined) continue;
    contents.push({ key, bytes: Number(text(element!, "Size") ?? 0), lastModified: dateOrNow(text(element!, "LastModified")) });
  }
  return { contents, truncated: text(xml, "IsTruncated") === "true", nextToken: text(xml, "NextContinuationToken") };
}

/** An age the server did not state counts as new: the sweep never removes a blob on a guess. */
function dateOrNow(value: string | undefined): Date {
  const date = new Date(value ?? "");
  return Number.isNaN(date.getTime()) ? new Date() : date;
}

function unescapeXml(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g, (_entity, name: string) => {
    if (name === "lt") return "<";
    if (name === "gt") return ">";
    if (name === "quot") return '"';
    if (name === "apos") return "'";
    if (name === "amp") return "&";
    return String.fromCodePoint(name.startsWith("#x") ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
  });
}
