import { processEnv } from "@/server/env";

/** Default size above which an upload is imported by a job worker instead of during the request. */
export const DEFAULT_ASYNC_IMPORT_MB = 32;

/**
 * TRACEFOLD_ASYNC_IMPORT_MB: uploads larger than this are imported as a
 * job (queued → importing → imported | duplicate | failed, polled by the upload page), so a long
 * parse never holds a studio request or its memory. `0` sends every upload through the queue.
 */
export function asyncImportBytes(env: Record<string, string | undefined> = processEnv()): number {
  const raw = env.TRACEFOLD_ASYNC_IMPORT_MB;
  const value = raw === undefined || raw === "" ? DEFAULT_ASYNC_IMPORT_MB : Number(raw);
  return Number.isFinite(value) && value >= 0 ? Math.floor(value * 1024 * 1024) : DEFAULT_ASYNC_IMPORT_MB * 1024 * 1024;
}
