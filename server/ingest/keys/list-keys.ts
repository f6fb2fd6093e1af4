import type { Db } from "../../db/client";
import { toKeyRecord, type KeyRecord } from "./key-record";

/** Every key, newest first, revoked ones included (they say when). */
export async function listKeys(db: Db): Promise<KeyRecord[]> {
  const rows = await db.apiKey.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(toKeyRecord);
}
