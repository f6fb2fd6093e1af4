import { createHash, randomBytes } from "node:crypto";
import { KEY_PREFIX } from "../../../lib/ingest/keys/api-key";

/** A new key: `tfk_` + 32 random bytes in base64url (43 characters). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

/**
 * What the database keeps of a key. A plain sha256 (not bcrypt): the key is 256 random bits, so
 * there is nothing to brute-force, and every API request looks its key up by this hash.
 */
export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
