import type { Sidecar } from "@/lib/compaction/projection/types";
import type { Db } from "../db/client";
import type { BlobStore } from "../storage/blob-store";
import { isUniqueViolation } from "../db/unique-violation";

/**
 * Stores the sidecars of one policy run so every folded object can be restored byte for byte:
 * each distinct payload once (a run folds duplicate payloads — the same file read twice, the same
 * command output — and they share one digest), skipping digests a row already names. Safe when
 * runs of the same session overlap (two requests, a request and a worker): the blob store takes
 * concurrent puts of the same bytes, and a row another run inserted first counts as written.
 * A row names the first session and fold that produced the payload.
 */
export async function persistSidecars(db: Db, store: BlobStore, sessionId: string, sidecars: readonly Sidecar[]): Promise<void> {
  const distinct = new Map<string, Sidecar>();
  for (const sidecar of sidecars) if (!distinct.has(sidecar.sha256)) distinct.set(sidecar.sha256, sidecar);
  if (distinct.size === 0) return;
  const known = await db.sidecar.findMany({ where: { sha256: { in: [...distinct.keys()] } }, select: { sha256: true } });
  for (const { sha256 } of known) distinct.delete(sha256);
  for (const sidecar of distinct.values()) {
    const blob = await store.putBytes(Buffer.from(sidecar.payload, "utf8"), "sidecars");
    if (blob.sha256 !== sidecar.sha256)
      throw new Error(`sidecar digest mismatch for ${sidecar.target}: the payload hashes to ${blob.sha256}, the policy said ${sidecar.sha256}`);
    try {
      await db.sidecar.create({ data: { sha256: sidecar.sha256, bytes: sidecar.bytes, storageKey: blob.key, target: sidecar.target, sessionId } });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
}
