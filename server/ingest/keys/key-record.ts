import type { KeyScope } from "../../../lib/ingest/keys/api-key";

/** An API key as lists show it: never the key, only its first characters. */
export interface KeyRecord {
  id: string;
  name: string;
  scope: KeyScope;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function toKeyRecord(row: {
  id: string;
  name: string;
  scope: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as KeyScope,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
