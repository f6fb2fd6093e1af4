import type { DbEngine } from "../../db/engine";
import type { Tx } from "../../trace/import/write-sessions";

/**
 * Holds a transaction-scoped lock on each key, in sorted order (so two requests never wait on each
 * other in a cycle). On PostgreSQL concurrent OTLP requests for the same trace or session would
 * otherwise each rebuild from a snapshot missing the other's spans, and the later commit would
 * drop spans from the session; a request that waited here reads the other's committed spans. SQLite
 * runs one write transaction at a time, so it needs nothing.
 */
export async function lockKeys(tx: Tx, engine: DbEngine, keys: Iterable<string>): Promise<void> {
  if (engine !== "postgres") return;
  for (const key of [...new Set(keys)].sort()) {
    await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${`otlp:${key}`}))) AS l`;
  }
}
