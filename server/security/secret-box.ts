import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Encryption at rest for secrets the studio stores (the LLM endpoint's API key): AES-256-GCM with a
 * key derived per value by HKDF-SHA256 from the studio's secret key (server/security/secret-key.ts)
 * and a random 16-byte salt. The `purpose` is both the HKDF info and the GCM additional data, so a
 * sealed value cannot be moved to another setting and still open.
 *
 * Sealed form: `v1.<keyId>.<salt>.<iv>.<ciphertext>.<tag>` (base64url parts). `keyId` is 8 bytes of
 * an HMAC of the derived key, so opening with a different secret key fails with a message that
 * says so, while any other change fails GCM's authentication ("altered"). Neither message, nor any
 * other, contains the plaintext or the secret key.
 */
const VERSION = "v1";

export type SecretBoxErrorCode = "wrong_key" | "tampered" | "malformed" | "no_secret_key";

export class SecretBoxError extends Error {
  constructor(
    readonly code: SecretBoxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SecretBoxError";
  }
}

const b64 = (bytes: Buffer) => bytes.toString("base64url");

function deriveKey(secretKey: string, salt: Buffer, purpose: string): Buffer {
  if (secretKey.length < 16) throw new SecretBoxError("no_secret_key", "the secret key is too short (16 characters at least)");
  return Buffer.from(hkdfSync("sha256", secretKey, salt, `tracefold:${purpose}`, 32));
}

function keyIdOf(key: Buffer): Buffer {
  return createHmac("sha256", key).update("tracefold key id").digest().subarray(0, 8);
}

/** Encrypts `plaintext` for `purpose` under `secretKey`; a fresh salt and IV every time. */
export function sealSecret(plaintext: string, secretKey: string, purpose: string): string {
  const salt = randomBytes(16);
  const key = deriveKey(secretKey, salt, purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(purpose, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, b64(keyIdOf(key)), b64(salt), b64(iv), b64(ciphertext), b64(cipher.getAuthTag())].join(".");
}

/** Decrypts a sealed value; throws SecretBoxError (wrong_key, tampered, malformed) otherwise. */
export function openSecret(sealed: string, secretKey: string, purpose: string): string {
  const parts = sealed.split(".");
  if (parts.length !== 6 || parts[0] !== VERSION) throw new SecretBoxError("malformed", "the stored secret is not in a format this version can read");
  const [keyId, salt, iv, ciphertext, tag] = parts.slice(1).map((p) => Buffer.from(p, "base64url")) as [Buffer, Buffer, Buffer, Buffer, Buffer];
  if (salt.length !== 16 || iv.length !== 12 || tag.length !== 16 || keyId.length !== 8)
    throw new SecretBoxError("malformed", "the stored secret is truncated or malformed");
  const key = deriveKey(secretKey, salt, purpose);
  if (!timingSafeEqual(keyId, keyIdOf(key))) {
    throw new SecretBoxError(
      "wrong_key",
      "the stored secret was encrypted with a different secret key (TRACEFOLD_SECRET_KEY or NEXTAUTH_SECRET changed); enter it again",
    );
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(Buffer.from(purpose, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError("tampered", "the stored secret has been altered and cannot be decrypted; enter it again");
  }
}
