import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { processEnv } from "@/server/env";

/**
 * Failed sign-ins, limited in the database so the limit holds across every studio process sharing
 * it. Three counters over one sliding window (15 minutes by default):
 *
 *   - account + client IP: `perAccountIp` failures (5) — the guessing limit a user actually meets;
 *   - client IP: `perIp` failures (50) — one address trying many accounts;
 *   - account from any IP: `perAccount` failures (100) — an attacker rotating (or forging) client
 *     addresses against one account still gets a bounded number of guesses.
 *
 * The account is keyed by a sha256 of the normalised e-mail whether or not a user exists, so a
 * lockout and its message look the same for unknown accounts and wrong passwords. A refused
 * (throttled) attempt is not recorded as a failure: waiting out the window always works. A
 * successful sign-in deletes the account's failures (all IPs).
 */
export interface ThrottleLimits {
  windowMs: number;
  perAccountIp: number;
  perIp: number;
  perAccount: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = { windowMs: 15 * 60_000, perAccountIp: 5, perIp: 50, perAccount: 100 };

/** The limits, with TRACEFOLD_SIGNIN_* overrides (whole positive numbers; anything else is ignored). */
export function throttleLimitsFromEnv(env: Record<string, string | undefined> = processEnv()): ThrottleLimits {
  const read = (name: string, fallback: number) => {
    const value = Number(env[name]?.trim());
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    windowMs: read("TRACEFOLD_SIGNIN_WINDOW_MINUTES", DEFAULT_THROTTLE_LIMITS.windowMs / 60_000) * 60_000,
    perAccountIp: read("TRACEFOLD_SIGNIN_MAX_FAILURES", DEFAULT_THROTTLE_LIMITS.perAccountIp),
    perIp: read("TRACEFOLD_SIGNIN_MAX_FAILURES_PER_IP", DEFAULT_THROTTLE_LIMITS.perIp),
    perAccount: read("TRACEFOLD_SIGNIN_MAX_FAILURES_PER_ACCOUNT", DEFAULT_THROTTLE_LIMITS.perAccount),
  };
}

/** The e-mail as the throttle stores it: never the address itself (it may be a mistyped password). */
export function accountKeyOf(email: string): string {
  return createHash("sha256").update(`tracefold-signin:${email.trim().toLowerCase()}`).digest("hex");
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

export interface SignInAttempt {
  email: string;
  ip: string;
}

/** Whether this account may try a password from this IP now; when not, how long until it may. */
export async function checkSignInThrottle(db: Db, attempt: SignInAttempt, limits: ThrottleLimits, now = new Date()): Promise<ThrottleVerdict> {
  const since = new Date(now.getTime() - limits.windowMs);
  const accountKey = accountKeyOf(attempt.email);
  const counters = [
    { where: { accountKey, ip: attempt.ip, createdAt: { gt: since } }, limit: limits.perAccountIp },
    { where: { ip: attempt.ip, createdAt: { gt: since } }, limit: limits.perIp },
    { where: { accountKey, createdAt: { gt: since } }, limit: limits.perAccount },
  ];
  let retryAt = 0;
  for (const counter of counters) {
    const count = await db.signInFailure.count({ where: counter.where });
    if (count < counter.limit) continue;
    // The counter drops below its limit when its (count - limit + 1)th oldest failure leaves the window.
    const expiring = await db.signInFailure.findMany({
      where: counter.where,
      orderBy: { createdAt: "asc" },
      skip: count - counter.limit,
      take: 1,
      select: { createdAt: true },
    });
    const at = (expiring[0]?.createdAt.getTime() ?? now.getTime()) + limits.windowMs;
    retryAt = Math.max(retryAt, at);
  }
  return retryAt > now.getTime() ? { allowed: false, retryAfterMs: retryAt - now.getTime() } : { allowed: true };
}

/** Records one failed sign-in and sweeps failures that left the window (any account). */
export async function recordSignInFailure(db: Db, attempt: SignInAttempt, limits: ThrottleLimits, now = new Date()): Promise<void> {
  await db.signInFailure.create({ data: { accountKey: accountKeyOf(attempt.email), ip: attempt.ip, createdAt: now } });
  await db.signInFailure.deleteMany({ where: { createdAt: { lte: new Date(now.getTime() - limits.windowMs) } } });
}

/** A successful sign-in: the account's failures (from every IP) are forgiven. */
export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.signInFailure.deleteMany({ where: { accountKey: accountKeyOf(email) } });
}

/** The login page shows this verbatim (components/auth/login-form.tsx matches its prefix). */
export const THROTTLED_PREFIX = "Too many failed sign-ins";

export function throttledMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `${THROTTLED_PREFIX}; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
