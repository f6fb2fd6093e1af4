import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { PublicError } from "../errors/public-error";
import type { BlobStore } from "../storage/blob-store";

/**
 * Reads a folded payload back by its sha256, verifying the digest so what the studio restores is
 * byte for byte what was folded. Null for unknown digests (or malformed ones: no path is built
 * from user input that is not a 64-hex digest).
 */
export async function readSidecar(db: Db, store: BlobStore, sha256: string): Promise<{ target: string; bytes: Buffer } | null> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
  const row = await db.sidecar.findUnique({ where: { sha256 } });
  if (!row) return null;
  const bytes = await store.readBytes(row.storageKey);
  if (createHash("sha256").update(bytes).digest("hex") !== sha256) throw new PublicError(`sidecar ${sha256} is corrupted in the blob store`);
  return { target: row.target, bytes };
}
