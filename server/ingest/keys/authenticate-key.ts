import { rateWindowStart, secondsToNextWindow, type KeyScope } from "../../../lib/ingest/keys/api-key";
import type { Db } from "../../db/client";
import { isUniqueViolation } from "../../db/unique-violation";
import { hashKey } from "./hash-key";

/** Requests one key may make per minute unless TRACEFOLD_KEY_RATE_LIMIT says otherwise. */
export const DEFAULT_KEY_RATE_LIMIT = 600;

export type KeyAuthentication =
  | { ok: true; key: { id: string; name: string; scope: KeyScope; createdById: string | null } }
  | { ok: false; code: "invalid_key"; message: string }
  | { ok: false; code: "rate_limited"; message: string; retryAfterSeconds: number };

/**
 * Looks a bearer key up by its hash and counts the request against the key's per-minute limit.
 * The count lives in the database (ApiKeyUsage, one row per key and minute, incremented by an
 * upsert), so every studio process shares it. An unknown and a revoked key read alike.
 */
export async function authenticateKey(db: Db, key: string, options: { limit?: number; now?: Date } = {}): Promise<KeyAuthentication> {
  const row = await db.apiKey.findUnique({
    where: { keyHash: hashKey(key) },
    select: { id: true, name: true, scope: true, revokedAt: true, createdById: true },
  });
  if (!row || row.revokedAt) return { ok: false, code: "invalid_key", message: "the API key is unknown or revoked" };
  const now = options.now ?? new Date();
  const window = rateWindowStart(now);
  const usage = await countRequest(db, row.id, window);
  if (usage.count === 1) {
    // First request of this minute: record the last use and drop windows no limit reads any more.
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
    await db.apiKeyUsage.deleteMany({ where: { keyId: row.id, window: { lt: window } } });
  }
  const limit = options.limit ?? DEFAULT_KEY_RATE_LIMIT;
  if (usage.count > limit) {
    return {
      ok: false,
      code: "rate_limited",
      message: `this API key made more than ${limit} requests this minute`,
      retryAfterSeconds: secondsToNextWindow(now),
    };
  }
  return { ok: true, key: { id: row.id, name: row.name, scope: row.scope as KeyScope, createdById: row.createdById } };
}

/**
 * Adds one request to the key's window. Two processes may both try to create the window's row;
 * the loser's unique violation means the row now exists, and its retry increments it.
 */
async function countRequest(db: Db, keyId: string, window: Date): Promise<{ count: number }> {
  const upsert = () =>
    db.apiKeyUsage.upsert({ where: { keyId_window: { keyId, window } }, create: { keyId, window, count: 1 }, update: { count: { increment: 1 } } });
  try {
    return await upsert();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return upsert();
  }
}
