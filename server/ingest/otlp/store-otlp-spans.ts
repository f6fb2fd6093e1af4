import { sessionKeyOfTrace } from "@/lib/ingest/otlp/received-span";
import type { Db } from "../../db/client";
import type { DbEngine } from "../../db/engine";
import type { BlobStore } from "../../storage/blob-store";
import type { ImportedSessionSummary } from "../../trace/import/import-trace-file";
import { lockKeys } from "./lock-keys";
import { markSessionsDirty, rebuildMarkedSession } from "./rebuild-marked-session";
import type { RedactedSpan } from "./redact-spans";

/** An export with thousands of spans rebuilds several sessions; leave it more than Prisma's 5 s. */
const TRANSACTION_TIMEOUT_MS = 5 * 60_000;

export interface StoreOtlpOptions {
  db: Db;
  engine: DbEngine;
  store: BlobStore;
  spans: readonly RedactedSpan[];
  userId?: string | undefined;
  /**
   * Sessions of at most this many stored spans are rebuilt in this transaction; longer ones are
   * only marked dirty and listed in `deferred`, for a rebuild after the request
   * (rebuildDirtyOtlpSession, coalesced by otlp-rebuild-scheduler.ts). Default: every session now.
   */
  syncRebuildSpans?: number | undefined;
}

export interface StoreOtlpResult {
  /** Spans not stored before (a redelivered span counts once, the first time). */
  stored: number;
  duplicates: number;
  /** The sessions as rebuilt (those left without messages are not listed). */
  sessions: ImportedSessionSummary[];
  /** Session keys marked dirty instead of rebuilt (longer than `syncRebuildSpans`). */
  deferred: string[];
}

/**
 * Stores an export's spans and rebuilds every session they touch, all in one transaction, so a
 * reader sees a session either before or after the whole request — never half of it:
 * 1. lock the request's traces; insert the spans not yet stored (unique by trace and span id, so
 *    a redelivery changes nothing and rebuilds nothing);
 * 2. each touched trace takes the session key its stored spans name (sessionKeyOfTrace: a span
 *    naming a conversation may arrive after its siblings, moving the whole trace there);
 * 3. lock the keys; rebuild each key the trace now belongs to and each it left — or, for a key
 *    past `syncRebuildSpans` spans, mark it dirty without its lock (a rebuild running on it never
 *    blocks the request), so a request's cost does not grow with its session's length.
 * The result depends on the set of spans stored, never on the order or number of deliveries; a
 * deferred session is, once rebuilt, what a rebuild inside the request would have made.
 */
export async function storeOtlpSpans(options: StoreOtlpOptions): Promise<StoreOtlpResult> {
  const { db, engine, store } = options;
  const incoming = uniqueSpans(options.spans);
  const syncLimit = options.syncRebuildSpans ?? Number.POSITIVE_INFINITY;
  if (incoming.length === 0) return { stored: 0, duplicates: 0, sessions: [], deferred: [] };
  return db.$transaction(
    async (tx) => {
      const traceIds = [...new Set(incoming.map((s) => s.traceId))];
      await lockKeys(
        tx,
        engine,
        traceIds.map((t) => `trace-lock:${t}`),
      );
      const known = await tx.otlpSpan.findMany({
        where: { traceId: { in: traceIds } },
        select: { traceId: true, spanId: true, groupKey: true, sessionKey: true },
      });
      const seen = new Set(known.map((k) => `${k.traceId}/${k.spanId}`));
      const fresh = incoming.filter((s) => !seen.has(`${s.traceId}/${s.spanId}`));
      if (fresh.length === 0) return { stored: 0, duplicates: incoming.length, sessions: [], deferred: [] };
      await tx.otlpSpan.createMany({
        data: fresh.map((s) => ({ traceId: s.traceId, spanId: s.spanId, groupKey: s.groupKey, sessionKey: "", startNs: s.startNs, payload: s.payload })),
      });

      // Every stored span of the touched traces (read under their locks, plus the ones just
      // inserted); one UPDATE per session key, not per trace, so a request's statements do not
      // grow with the number of traces it carries.
      const byTrace = new Map<string, { groupKey: string | null; sessionKey: string }[]>();
      for (const row of [...known, ...fresh.map((f) => ({ traceId: f.traceId, groupKey: f.groupKey, sessionKey: "" }))]) {
        const rows = byTrace.get(row.traceId) ?? [];
        rows.push(row);
        byTrace.set(row.traceId, rows);
      }
      const keys = new Set<string>();
      const moves = new Map<string, string[]>();
      for (const traceId of new Set(fresh.map((s) => s.traceId))) {
        const stored = byTrace.get(traceId) ?? [];
        const key = sessionKeyOfTrace(
          traceId,
          stored.map((s) => s.groupKey),
        );
        for (const s of stored) if (s.sessionKey) keys.add(s.sessionKey);
        keys.add(key);
        const traces = moves.get(key) ?? [];
        traces.push(traceId);
        moves.set(key, traces);
      }
      for (const [key, traces] of moves)
        await tx.otlpSpan.updateMany({ where: { traceId: { in: traces }, sessionKey: { not: key } }, data: { sessionKey: key } });
      const now: string[] = [];
      const deferred: string[] = [];
      for (const key of [...keys].sort()) {
        const long = Number.isFinite(syncLimit) && (await tx.otlpSpan.count({ where: { sessionKey: key } })) > syncLimit;
        (long ? deferred : now).push(key);
      }
      // Lock order everywhere: traces, then session keys, then dirty marks (no cycle, no deadlock).
      await lockKeys(tx, engine, now);
      const sessions: ImportedSessionSummary[] = [];
      for (const key of now) {
        const rebuilt = await rebuildMarkedSession(tx, store, key, { userId: options.userId });
        if (rebuilt) sessions.push(rebuilt);
      }
      await markSessionsDirty(tx, deferred, options.userId);
      return { stored: fresh.length, duplicates: incoming.length - fresh.length, sessions, deferred };
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
