import type { Db } from "../../db/client";
import type { DbEngine } from "../../db/engine";
import type { BlobStore } from "../../storage/blob-store";
import { lockKeys } from "./lock-keys";
import { rebuildMarkedSession } from "./rebuild-marked-session";

/** A long session's rebuild writes thousands of messages; leave it more than Prisma's 5 s. */
const TRANSACTION_TIMEOUT_MS = 5 * 60_000;

/**
 * Rebuilds one session marked dirty by storeOtlpSpans, in its own transaction under the key's lock
 * (so two processes never rebuild it at once, and a reader sees the session before or after, never
 * half of it). A key no longer marked was rebuilt by someone else after its spans committed: nothing
 * to do. Answers whether it rebuilt.
 */
export async function rebuildDirtyOtlpSession(db: Db, engine: DbEngine, store: BlobStore, sessionKey: string): Promise<boolean> {
  return db.$transaction(
    async (tx) => {
      await lockKeys(tx, engine, [sessionKey]);
      if (!(await tx.otlpDirtySession.findUnique({ where: { sessionKey }, select: { sessionKey: true } }))) return false;
      await rebuildMarkedSession(tx, store, sessionKey);
      return true;
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 60_000 },
  );
}

/** Keys marked dirty at least `olderThanMs` ago (a studio stopped before rebuilding them), oldest first. */
export async function staleDirtyOtlpSessions(db: Db, olderThanMs: number, now = new Date()): Promise<string[]> {
  const rows = await db.otlpDirtySession.findMany({
    where: { since: { lte: new Date(now.getTime() - olderThanMs) } },
    orderBy: { since: "asc" },
    select: { sessionKey: true },
  });
  return rows.map((r) => r.sessionKey);
}
