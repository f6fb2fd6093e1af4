import type { ApiPrincipal } from "../../auth/key-principal";
import { getDb } from "../../db/client";
import { publicMessage } from "../../errors/public-error";
import { getJobQueue } from "../../jobs/process-queue";
import { getBlobStore } from "../../storage/configured-blob-store";
import { asyncImportBytes } from "./async-import-threshold";
import { EmptyUploadError, receiveUpload } from "./receive-upload";
import { ArchiveError } from "@/lib/trace/archive/archive-limits";
import { isMultipart, maxUploadBytes, ONE_FILE_PER_REQUEST_MESSAGE, rateLimitedMessage, tooLargeMessage, uploadsPerMinute } from "./upload-limits";
import { UploadQuerySchema } from "./upload-query";
import { sharedUploadRateLimiter } from "./upload-rate";
import { outcomeResponse, type UploadError } from "./upload-response";
import { UploadTooLargeError } from "./write-body-to-file";

/**
 * One trace file in a request body (`?name=<file name>&format=<optional>`), after the route has
 * checked the origin and the caller: `PUT /api/uploads` (the upload page) and `POST /api/v1/uploads`
 * (scripts, `tracefold push`) answer alike. At most TRACEFOLD_UPLOADS_PER_MINUTE per caller (429
 * with Retry-After past it); zip and gzip archives are refused (415). Secrets are redacted before
 * the file is stored or parsed, and the answer carries the redaction report. A file larger than
 * TRACEFOLD_ASYNC_IMPORT_MB is imported by a job worker: 202 with `{ status: "queued", importId }`,
 * polled at `GET /api/uploads/imports/<importId>`. Answers `{ ok: true, data: outcome }` (201
 * imported, 200 duplicate) or `{ ok: false, code, message }` (422 with located issues when the file
 * is not a valid trace).
 */
export async function receiveUploadRequest(request: Request, user: ApiPrincipal): Promise<Response> {
  const query = UploadQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return fail(400, "invalid_request", query.error.issues.map((i) => i.message).join("; "));

  if (isMultipart(request.headers.get("content-type"))) return fail(400, "one_file_per_request", ONE_FILE_PER_REQUEST_MESSAGE);
  const limit = uploadsPerMinute();
  const slot = sharedUploadRateLimiter(uploadsPerMinute).take(user.id);
  if (!slot.ok) return fail(429, "rate_limited", rateLimitedMessage(limit, slot.retryAfterSeconds), { "retry-after": String(slot.retryAfterSeconds) });

  const maxBytes = maxUploadBytes();
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge(maxBytes);

  try {
    const outcome = await receiveUpload({
      db: getDb(),
      store: getBlobStore(),
      body: request.body,
      fileName: query.data.name,
      format: query.data.format,
      userId: user.apiKey ? (user.apiKey.createdById ?? undefined) : user.id,
      maxBytes,
      queue: getJobQueue(),
      asyncImportBytes: asyncImportBytes(),
    });
    const { status, body } = outcomeResponse(outcome);
    return Response.json(body, { status });
  } catch (error) {
    if (error instanceof UploadTooLargeError) return tooLarge(maxBytes);
    if (error instanceof ArchiveError) return fail(error.code === "archive_too_large" ? 413 : 415, "archive_refused", error.message);
    if (error instanceof EmptyUploadError) return fail(422, "empty_file", "the file is empty: there is nothing to import");
    return fail(500, "internal", `the import failed: ${publicMessage(error, `upload of ${JSON.stringify(query.data.name)}`)}`);
  }
}

function tooLarge(maxBytes: number): Response {
  return fail(413, "too_large", tooLargeMessage(maxBytes));
}

function fail(status: number, code: UploadError["code"], message: string, headers?: Record<string, string>): Response {
  return Response.json({ ok: false, code, message } satisfies UploadError, { status, ...(headers ? { headers } : {}) });
}
