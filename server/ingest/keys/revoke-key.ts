import type { Db } from "../../db/client";
import { toKeyRecord, type KeyRecord } from "./key-record";

/** Revokes a key from now on (idempotent: a revoked key keeps its first revocation time); null when no such key. */
export async function revokeKey(db: Db, id: string, at = new Date()): Promise<KeyRecord | null> {
  const row = await db.apiKey.findUnique({ where: { id } });
  if (!row) return null;
  if (row.revokedAt) return toKeyRecord(row);
  return toKeyRecord(await db.apiKey.update({ where: { id }, data: { revokedAt: at } }));
}
