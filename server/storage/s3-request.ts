import { createHash, createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import type { S3Settings } from "./storage-config";

/**
 * A minimal S3 client: AWS Signature Version 4 over node:http(s), for the calls the blob store
 * makes (HEAD, PUT, GET, DELETE of an object; ListObjectsV2 and HEAD of the bucket). Why not @aws-sdk/client-s3: it brings dozens of
 * @aws-sdk/@smithy packages into a lockfile other work edits concurrently, and content addressing
 * removes the hard part SigV4 usually has — the payload hash is the blob's own sha256, known
 * before the upload, so a file is streamed in one signed PUT (up to S3's 5 GB single-PUT limit,
 * far above TRACEFOLD_MAX_UPLOAD_MB's default) and the server checks the bytes against it. It
 * speaks the plain S3 REST API that AWS S3, MinIO, Ceph and R2 serve; it is tested against s3rver
 * and AWS's published signature examples. `forcePathStyle` chooses `endpoint/bucket/key` over
 * `bucket.endpoint/key`.
 */
export interface S3Request {
  method: "GET" | "HEAD" | "PUT" | "DELETE";
  /** Object key; absent for bucket-level calls. */
  key?: string;
  /** Query parameters (ListObjectsV2's `list-type`, `prefix`, `continuation-token`); signed. */
  query?: Record<string, string>;
  /** Hex sha256 of the body (of "" when there is none). */
  payloadSha256?: string;
  body?: Readable | Buffer;
  contentLength?: number;
}

export interface S3Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: http.IncomingMessage;
}

/** Socket idle time after which a request is abandoned. */
const IDLE_TIMEOUT_MS = 120_000;

const EMPTY_SHA256 = createHash("sha256").update("").digest("hex");

/** Sends one signed request; the caller reads or drains `body`. */
export function s3Request(settings: S3Settings, request: S3Request, now = new Date()): Promise<S3Response> {
  const endpoint = new URL(settings.endpoint);
  const { host, path } = s3Target(settings, request.key);
  const query = canonicalQuery(request.query ?? {});
  const payloadSha256 = request.payloadSha256 ?? EMPTY_SHA256;
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const headers: Record<string, string> = { host, "x-amz-content-sha256": payloadSha256, "x-amz-date": amzDate };
  if (request.contentLength !== undefined) headers["content-length"] = String(request.contentLength);
  headers.authorization = signatureV4(settings, request.method, path, headers, query);
  const transport = endpoint.protocol === "https:" ? https : http;
  return new Promise((resolvePromise, reject) => {
    const req = transport.request(
      { method: request.method, hostname: endpoint.hostname, port: endpoint.port || undefined, path: query ? `${path}?${query}` : path, headers },
      (res) => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
    );
    req.on("error", reject);
    // A store that stops answering must fail the operation, not hang an import or a worker forever.
    req.setTimeout(IDLE_TIMEOUT_MS, () =>
      req.destroy(new Error(`S3 ${request.method} ${request.key ?? settings.bucket}: no response from ${endpoint.host} for ${IDLE_TIMEOUT_MS / 1000} s`)),
    );
    if (request.body === undefined) req.end();
    else if (Buffer.isBuffer(request.body)) req.end(request.body);
    else {
      request.body.on("error", (error) => req.destroy(error));
      request.body.pipe(req);
    }
  });
}

/** Host header and URI-encoded path of an object (or the bucket): path-style or virtual-hosted. */
export function s3Target(settings: Pick<S3Settings, "endpoint" | "bucket" | "forcePathStyle">, key?: string): { host: string; path: string } {
  const endpoint = new URL(settings.endpoint);
  const basePath = endpoint.pathname.replace(/\/+$/, "");
  const objectPath = key === undefined ? "" : `/${key.split("/").map(encodeRfc3986).join("/")}`;
  return settings.forcePathStyle
    ? { host: endpoint.host, path: `${basePath}/${encodeRfc3986(settings.bucket)}${objectPath}` }
    : { host: `${settings.bucket}.${endpoint.host}`, path: `${basePath}${objectPath || "/"}` };
}

/**
 * The query string as SigV4 signs it and as it is sent: parameters sorted by name, names and values
 * RFC 3986-encoded, `name=value` joined by `&` ("" without parameters).
 */
export function canonicalQuery(query: Record<string, string>): string {
  return Object.keys(query)
    .sort()
    .map((name) => `${encodeRfc3986(name)}=${encodeRfc3986(query[name]!)}`)
    .join("&");
}

/**
 * The Authorization header, signing every header given (lower-case names; `x-amz-date` and
 * `x-amz-content-sha256` among them) and the canonical query string (see canonicalQuery). Pinned
 * by AWS's published examples in tests/unit/storage/s3-signature.test.ts.
 */
export function signatureV4(
  credentials: Pick<S3Settings, "accessKeyId" | "secretAccessKey" | "region">,
  method: string,
  path: string,
  headers: Record<string, string>,
  query = "",
): string {
  const names = Object.keys(headers).sort();
  const amzDate = headers["x-amz-date"]!;
  const canonical = [method, path, query, ...names.map((n) => `${n}:${headers[n]!.trim()}`), "", names.join(";"), headers["x-amz-content-sha256"]!].join("\n");
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${credentials.region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, createHash("sha256").update(canonical).digest("hex")].join("\n");
  let key: Buffer = hmac(`AWS4${credentials.secretAccessKey}`, day);
  for (const part of [credentials.region, "s3", "aws4_request"]) key = hmac(key, part);
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  return `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(";")}, Signature=${signature}`;
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac("sha256", key).update(data).digest();
}

/** URI encoding as SigV4 wants it: RFC 3986 unreserved characters kept, everything else %XX. */
function encodeRfc3986(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Reads a (small) response body as text: error documents, and draining bodies we do not need. */
export async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A failed S3 call, naming the operation, the key and the server's error code. */
export class S3Error extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(`S3 ${operation} failed: ${status} ${code}${detail ? ` (${detail})` : ""}`);
    this.name = "S3Error";
  }
}

/** Turns a non-2xx response into an S3Error carrying the XML error's Code and Message. */
export async function s3Failure(operation: string, response: S3Response): Promise<S3Error> {
  const text = response.body.readableEnded ? "" : await readText(response.body).catch(() => "");
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? http.STATUS_CODES[response.status] ?? "error";
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? "";
  return new S3Error(operation, response.status, code, message);
}
