import type { Db } from "../../db/client";
import { isBlobReferenced } from "../../storage/blob-references";
import type { BlobStore } from "../../storage/blob-store";

/**
 * Removes the blobs a deletion freed: each candidate key that no row names any more and that was not
 * written in the minutes before the deletion began. An import of the same bytes puts its blob first
 * and commits its row after, and every put makes the blob's lastModified about now; a blob put within
 * FRESH_MS may belong to such an import, so it stays (the hourly sweep, sweepUnreferencedBlobs, takes
 * it later if no row claims it). Returns the keys removed.
 */
export const FRESH_MS = 5 * 60_000;

export async function removeFreedBlobs(db: Db, store: BlobStore, keys: Iterable<string>, options: { startedAt: Date; freshMs?: number }): Promise<string[]> {
  const freshBefore = options.startedAt.getTime() - (options.freshMs ?? FRESH_MS);
  const removed: string[] = [];
  for (const key of new Set(keys)) {
    const current = await store.stat(key);
    if (!current || current.lastModified.getTime() >= freshBefore) continue;
    if (await isBlobReferenced(db, key)) continue;
    await store.remove(key);
    removed.push(key);
  }
  return removed;
}
