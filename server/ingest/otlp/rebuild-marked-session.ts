import type { BlobStore } from "../../storage/blob-store";
import type { ImportedSessionSummary } from "../../trace/import/import-trace-file";
import type { Tx } from "../../trace/import/write-sessions";
import { rebuildOtlpSession } from "./rebuild-otlp-session";

/**
 * Rebuilds `sessionKey` inside the caller's transaction (which holds the key's lock) and clears its
 * dirty mark — only if no request marked it again meanwhile. The mark's generation is read before
 * the spans: a request that committed spans after that read also bumped the generation, so the
 * mark stays (its `since` restarted) and the key is rebuilt once more; none is ever lost.
 */
export async function rebuildMarkedSession(
  tx: Tx,
  store: BlobStore,
  sessionKey: string,
  options: { userId?: string | undefined } = {},
): Promise<ImportedSessionSummary | undefined> {
  const mark = await tx.otlpDirtySession.findUnique({ where: { sessionKey } });
  const userId = options.userId ?? mark?.userId ?? undefined;
  const rebuilt = await rebuildOtlpSession(tx, store, sessionKey, { userId });
  if (mark) {
    const cleared = await tx.otlpDirtySession.deleteMany({ where: { sessionKey, generation: mark.generation } });
    if (cleared.count === 0) await tx.otlpDirtySession.updateMany({ where: { sessionKey }, data: { since: new Date() } });
  }
  return rebuilt;
}

/**
 * Marks keys dirty inside a store transaction: a new mark, or the existing one's generation bumped
 * (so a rebuild running now keeps it). In sorted order, after any key lock the transaction takes.
 */
export async function markSessionsDirty(tx: Tx, keys: Iterable<string>, userId?: string): Promise<void> {
  for (const sessionKey of [...new Set(keys)].sort()) {
    await tx.otlpDirtySession.upsert({
      where: { sessionKey },
      create: { sessionKey, ...(userId ? { userId } : {}) },
      update: { generation: { increment: 1 } },
    });
  }
}
