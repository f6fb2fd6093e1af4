import { z } from "zod";

/**
 * Project API keys (issue 15), the parts that need no database or crypto: scopes, the key's text
 * form, reading it from an `Authorization` header, and which scope a request may use.
 *
 * A key is `tfk_` followed by 43 base64url characters (32 random bytes). The prefix makes a leaked
 * key easy to find with a secret scanner, and lists show the first characters (`tfk_ab12cd`).
 */
export const KEY_SCOPES = ["ingest", "read"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];
export const KeyScopeSchema = z.enum(KEY_SCOPES, { message: "scope must be ingest or read" });

export const KEY_PREFIX = "tfk_";
const KEY_PATTERN = /^tfk_[A-Za-z0-9_-]{43}$/;
/** Characters of a key shown in lists: the prefix and six more. */
export const KEY_SHOWN_CHARS = KEY_PREFIX.length + 6;

export const KeyNameSchema = z.string().trim().min(1, "name must not be empty").max(80, "name must be at most 80 characters");

export function isKeyText(text: string): boolean {
  return KEY_PATTERN.test(text);
}

/** What an `Authorization` header says: no bearer token, a well-formed key, or a token that is not one. */
export type BearerReading = { kind: "none" } | { kind: "key"; key: string } | { kind: "malformed" };

export function readBearer(header: string | null | undefined): BearerReading {
  if (!header) return { kind: "none" };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (!match) return /^Bearer\b/i.test(header.trim()) ? { kind: "malformed" } : { kind: "none" };
  return isKeyText(match[1]!) ? { kind: "key", key: match[1]! } : { kind: "malformed" };
}

/**
 * Whether a key of `scope` may call a route. A `read` key reads what a viewer reads (routes open
 * to the viewer role); an `ingest` key only sends traces (routes that declare `ingest`). Nothing
 * else — reviewing, managing users or keys, settings — is open to keys.
 */
export function scopeAllows(scope: KeyScope, route: { role: "viewer" | "reviewer" | "admin"; ingest?: boolean }): boolean {
  return scope === "read" ? route.role === "viewer" : route.ingest === true;
}

/** Start of the one-minute rate-limit window holding `at`. */
export function rateWindowStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
}

/** Seconds until the window holding `at` ends (a 429's Retry-After). */
export function secondsToNextWindow(at: Date): number {
  return Math.max(1, Math.ceil((rateWindowStart(at).getTime() + 60_000 - at.getTime()) / 1000));
}
