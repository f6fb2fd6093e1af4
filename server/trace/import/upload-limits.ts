import { processEnv } from "@/server/env";

// The size limit lives with the file readers (archives expand up to it); re-exported for the upload callers.
export { DEFAULT_MAX_UPLOAD_MB, maxUploadBytes } from "../files/max-upload-bytes";

/** "512 MB" — the same wording in the 413 answer and the upload page. */
export function describeBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Default cap on uploads per user per minute: a drop of a hundred files passes, a runaway script does not. */
export const DEFAULT_UPLOADS_PER_MINUTE = 120;

/** Uploads one user may start per minute, from TRACEFOLD_UPLOADS_PER_MINUTE (read on every call). */
export function uploadsPerMinute(env: Record<string, string | undefined> = processEnv()): number {
  const raw = env.TRACEFOLD_UPLOADS_PER_MINUTE;
  const n = raw === undefined || raw.trim() === "" ? DEFAULT_UPLOADS_PER_MINUTE : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_UPLOADS_PER_MINUTE;
}

/** The 429 answer's message: the limit, the setting that moves it and when to try again. */
export function rateLimitedMessage(limit: number, retryAfterSeconds: number): string {
  return `too many uploads: at most ${limit} per minute per user (TRACEFOLD_UPLOADS_PER_MINUTE); try again in ${retryAfterSeconds} s`;
}

/** The upload route takes one file per request as the raw body; a multipart form could carry many. */
export const ONE_FILE_PER_REQUEST_MESSAGE = "send one file per request as the raw request body (multipart form uploads are not accepted)";

/** Whether a request's Content-Type is a multipart form (refused: one file per request). */
export function isMultipart(contentType: string | null): boolean {
  return /^\s*multipart\//i.test(contentType ?? "");
}

/** The 413 answer's message. */
export function tooLargeMessage(maxBytes: number): string {
  return `the file is larger than the upload limit of ${describeBytes(maxBytes)} (TRACEFOLD_MAX_UPLOAD_MB); import it with the CLI instead`;
}
