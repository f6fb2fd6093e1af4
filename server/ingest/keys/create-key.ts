import { KEY_SHOWN_CHARS, KeyNameSchema, KeyScopeSchema } from "../../../lib/ingest/keys/api-key";
import type { Db } from "../../db/client";
import { generateKey, hashKey } from "./hash-key";
import { toKeyRecord, type KeyRecord } from "./key-record";
import { z } from "zod";

export const CreateKeyInputSchema = z.object({ name: KeyNameSchema, scope: KeyScopeSchema });
export type CreateKeyInput = z.infer<typeof CreateKeyInputSchema>;

/** Creates a key and returns it with its record: the only time the key itself exists outside the caller. */
export async function createKey(db: Db, input: CreateKeyInput, createdById?: string): Promise<KeyRecord & { key: string }> {
  const key = generateKey();
  const row = await db.apiKey.create({
    data: { name: input.name, scope: input.scope, keyHash: hashKey(key), prefix: key.slice(0, KEY_SHOWN_CHARS), ...(createdById ? { createdById } : {}) },
  });
  return { ...toKeyRecord(row), key };
}
