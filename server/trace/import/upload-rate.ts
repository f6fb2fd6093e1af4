/**
 * Uploads per user per minute, counted in this process over a sliding 60-second window. Each
 * studio process counts for itself (a team running N studios behind a balancer allows up to N times
 * the limit); the point is to stop one runaway client from filling the disk and the import queue,
 * not to meter exactly. The clock is a parameter so tests pin the window.
 */
export interface UploadRateLimiter {
  /** Takes a slot for `userId` at `now`, or answers how many seconds until one frees up. */
  take(userId: string, now?: number): { ok: true } | { ok: false; retryAfterSeconds: number };
}

const WINDOW_MS = 60_000;

export function createUploadRateLimiter(limit: () => number): UploadRateLimiter {
  const starts = new Map<string, number[]>();
  return {
    take(userId, now = Date.now()) {
      const recent = (starts.get(userId) ?? []).filter((t) => t > now - WINDOW_MS);
      if (recent.length >= limit()) {
        starts.set(userId, recent);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000)) };
      }
      recent.push(now);
      starts.set(userId, recent);
      return { ok: true };
    },
  };
}

/** The studio's one limiter (module state: one per server process). */
let shared: UploadRateLimiter | undefined;
export function sharedUploadRateLimiter(limit: () => number): UploadRateLimiter {
  shared ??= createUploadRateLimiter(limit);
  return shared;
}
