import { sessionKeyOfTrace } from "@/lib/ingest/otlp/received-span";
import type { Db } from "../../db/client";
import type { DbEngine } from "../../db/engine";
import type { BlobStore } from "../../storage/blob-store";
import type { ImportedSessionSummary } from "../../trace/import/import-trace-file";
import { lockKeys } from "./lock-keys";
import { rebuildOtlpSession } from "./rebuild-otlp-session";
import type { RedactedSpan } from "./redact-spans";

/** An export with thousands of spans rebuilds several sessions; leave it more than Prisma's 5 s. */
const TRANSACTION_TIMEOUT_MS = 5 * 60_000;

export interface StoreOtlpOptions {
  db: Db;
  engine: DbEngine;
  store: BlobStore;
  spans: readonly RedactedSpan[];
  userId?: string | undefined;
}

export interface StoreOtlpResult {
  /** Spans not stored before (a redelivered span counts once, the first time). */
  stored: number;
  duplicates: number;
  /** The sessions as rebuilt (those left without messages are not listed). */
  sessions: ImportedSessionSummary[];
}

/**
 * Stores an export's spans and rebuilds every session they touch, all in one transaction, so a
 * reader sees a session either before or after the whole request — never half of it:
 * 1. lock the request's traces; insert the spans not yet stored (unique by trace and span id, so
 *    a redelivery changes nothing and rebuilds nothing);
 * 2. each touched trace takes the session key its stored spans name (sessionKeyOfTrace: a span
 *    naming a conversation may arrive after its siblings, moving the whole trace there);
 * 3. lock the keys; rebuild each key the trace now belongs to and each it left.
 * The result depends on the set of spans stored, never on the order or number of deliveries.
 */
export async function storeOtlpSpans(options: StoreOtlpOptions): Promise<StoreOtlpResult> {
  const { db, engine, store } = options;
  const incoming = uniqueSpans(options.spans);
  if (incoming.length === 0) return { stored: 0, duplicates: 0, sessions: [] };
  return db.$transaction(
    async (tx) => {
      const traceIds = [...new Set(incoming.map((s) => s.traceId))];
      await lockKeys(
        tx,
        engine,
        traceIds.map((t) => `trace-lock:${t}`),
      );
      const known = await tx.otlpSpan.findMany({ where: { traceId: { in: traceIds } }, select: { traceId: true, spanId: true } });
      const seen = new Set(known.map((k) => `${k.traceId}/${k.spanId}`));
      const fresh = incoming.filter((s) => !seen.has(`${s.traceId}/${s.spanId}`));
      if (fresh.length === 0) return { stored: 0, duplicates: incoming.length, sessions: [] };
      await tx.otlpSpan.createMany({
        data: fresh.map((s) => ({ traceId: s.traceId, spanId: s.spanId, groupKey: s.groupKey, sessionKey: "", startNs: s.startNs, payload: s.payload })),
      });

      const keys = new Set<string>();
      for (const traceId of new Set(fresh.map((s) => s.traceId))) {
        const stored = await tx.otlpSpan.findMany({ where: { traceId }, select: { groupKey: true, sessionKey: true } });
        const key = sessionKeyOfTrace(
          traceId,
          stored.map((s) => s.groupKey),
        );
        for (const s of stored) if (s.sessionKey) keys.add(s.sessionKey);
        keys.add(key);
        await tx.otlpSpan.updateMany({ where: { traceId, sessionKey: { not: key } }, data: { sessionKey: key } });
      }
      await lockKeys(tx, engine, keys);
      const sessions: ImportedSessionSummary[] = [];
      for (const key of [...keys].sort()) {
        const rebuilt = await rebuildOtlpSession(tx, store, key, { userId: options.userId });
        if (rebuilt) sessions.push(rebuilt);
      }
      return { stored: fresh.length, duplicates: incoming.length - fresh.length, sessions };
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 60_000 },
  );
}

/** One copy of each span id pair (an exporter retry inside one batch must not break the insert). */
function uniqueSpans(spans: readonly RedactedSpan[]): RedactedSpan[] {
  const byId = new Map<string, RedactedSpan>();
  for (const span of spans) if (!byId.has(`${span.traceId}/${span.spanId}`)) byId.set(`${span.traceId}/${span.spanId}`, span);
  return [...byId.values()];
}
