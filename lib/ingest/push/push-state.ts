import { z } from "zod";

/**
 * `tracefold push`'s state file (issue 15, item 4): which files already reached which studio, by
 * content digest, so a push that was stopped — or run again by a CI job — sends only what is new
 * or changed. One file per studio URL; entries are keyed by the file's absolute path.
 */
export const PushEntrySchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "sha256 must be 64 hex digits"),
  /** imported | duplicate: the studio has these bytes (a failed file is not recorded: it is retried). */
  status: z.enum(["imported", "duplicate"]),
  uploadId: z.string().optional(),
  sessions: z.number().int().nonnegative(),
  pushedAt: z.string(),
});
export type PushEntry = z.infer<typeof PushEntrySchema>;

export const PushStateSchema = z.object({
  version: z.literal(1),
  to: z.string().url("to must be the studio's URL"),
  files: z.record(z.string(), PushEntrySchema),
});
export type PushState = z.infer<typeof PushStateSchema>;

export function emptyPushState(to: string): PushState {
  return { version: 1, to, files: {} };
}

/** Whether `path` with content `sha256` is already at the studio. */
export function isPushed(state: PushState, path: string, sha256: string): boolean {
  return state.files[path]?.sha256 === sha256;
}

/** Attempts per file before it counts as failed (the first try and four retries). */
export const PUSH_ATTEMPTS = 5;

/**
 * Wait before retry `attempt` (1-based) of a 429 or 5xx answer or a dropped connection: the
 * server's Retry-After when it gave one, else exponential backoff from 1 s, capped at 30 s.
 * Hand-written: the loop is ten lines, and a retry library would not know Retry-After here.
 */
export function retryDelayMs(attempt: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0) return Math.min(retryAfterSeconds, 300) * 1000;
  return Math.min(30_000, 1000 * 2 ** (attempt - 1));
}

/** Whether an HTTP status is worth retrying (rate limit, server trouble) rather than a verdict on the file. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}
