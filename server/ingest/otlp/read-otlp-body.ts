import { promisify } from "node:util";
import { gunzip } from "node:zlib";

const gunzipAsync = promisify(gunzip);

/** Why a body could not be read: too large (413), an unsupported encoding (415) or broken gzip (400). */
export class OtlpBodyError extends Error {
  constructor(
    public readonly status: 400 | 413 | 415,
    public readonly code: "too_large" | "unsupported_encoding" | "malformed_gzip",
    message: string,
  ) {
    super(message);
  }
}

/**
 * The request body as bytes, gunzipped when `Content-Encoding: gzip` (what OTel exporters send
 * with `compression: gzip`). `maxBytes` caps both what is read and what gzip may expand to, so
 * neither a long body nor a small gzip bomb grows past it; the count, not Content-Length, is what
 * is enforced. OTLP export batches are small (the SDK default is 512 spans), so the body is held
 * in memory rather than streamed to disk as uploads are.
 */
export async function readOtlpBody(request: Request, maxBytes: number, tooLarge: string): Promise<Uint8Array> {
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "identity")
    throw new OtlpBodyError(415, "unsupported_encoding", `Content-Encoding ${JSON.stringify(encoding)} is not supported: send gzip or no encoding`);
  const raw = await readLimited(request, maxBytes, tooLarge);
  if (encoding === "identity") return raw;
  try {
    return await gunzipAsync(raw, { maxOutputLength: maxBytes });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new OtlpBodyError(413, "too_large", `${tooLarge} (after gunzip)`);
    throw new OtlpBodyError(400, "malformed_gzip", `the body is not valid gzip: ${(error as Error).message}`);
  }
}

async function readLimited(request: Request, maxBytes: number, tooLarge: string): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw new OtlpBodyError(413, "too_large", tooLarge);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel();
      throw new OtlpBodyError(413, "too_large", tooLarge);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
