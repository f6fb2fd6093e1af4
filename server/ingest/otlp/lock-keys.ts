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
  const sorted = [...new Set(keys)].sort().map((key) => `otlp:${key}`);
  if (sorted.length === 0) return;
  if (sorted.length === 1) {
    await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${sorted[0]}))) AS l`;
    return;
  }
  // One round trip for a request's many traces: the ordered subquery feeds the locks in that order.
  await tx.$queryRaw`SELECT count(*)::int AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(k)) FROM (SELECT k FROM unnest(${sorted}::text[]) WITH ORDINALITY AS u(k, i) ORDER BY i) AS o) AS l`;
}
