import type { Db } from "../db/client";
import { isBlobReferenced, referencedBlobKeys } from "./blob-references";
import type { BlobKind, BlobStore } from "./blob-store";

/** Blobs written within this long are never removed (workers: TRACEFOLD_BLOB_SWEEP_GRACE_MINUTES; CLI: --grace-minutes). */
export const DEFAULT_BLOB_GRACE_MS = 60 * 60_000;

const KINDS: readonly BlobKind[] = ["uploads", "sidecars"];

export interface BlobSweepOptions {
  /** Minimum age of a blob that may go (default DEFAULT_BLOB_GRACE_MS). */
  graceMs?: number;
  /** Count what would go, remove nothing. */
  dryRun?: boolean;
  /** The clock (ms since the epoch). */
  now?: () => number;
}

/** What one sweep saw: scanned = referenced + keptYoung + removed + vanished. */
export interface BlobSweepResult {
  dryRun: boolean;
  graceMs: number;
  /** Blobs listed in the store. */
  scanned: number;
  /** Named by a row (when the sweep started, or by the time it re-checked). */
  referenced: number;
  /** Unreferenced but written within the grace period. */
  keptYoung: number;
  /** Unreferenced and old: removed (with dryRun: would be). */
  removed: number;
  /** Listed, then gone before the sweep got to it (another sweep took it). */
  vanished: number;
  /** Sizes of the removed blobs. */
  bytesFreed: number;
  removedKeys: string[];
}

/**
 * Removes the blobs no row refers to: what an import killed before its transaction committed left
 * in the store, which nothing else ever deletes. Every key any row names (blob-references.ts) is
 * read first, then the store is listed; a blob that is unreferenced and older than the grace period
 * is checked again right before it goes — its age (`stat`), then the database (`isBlobReferenced`)
 * — so a row committed since the first read still saves it.
 *
 * Why the grace period makes racing imports harmless: an import puts its blob first and commits the
 * row naming it later, and between the two the blob is unreferenced. Every put — also a put of
 * bytes already stored, whose blob may be months old — makes the blob's lastModified about now
 * (BlobStore.putFile), so an import's blob stays younger than the grace period until its row
 * commits, as long as no import runs longer than the grace period (an hour by default; imports are
 * bounded by TRACEFOLD_MAX_UPLOAD_MB and run in one transaction, typically seconds). The re-check
 * reads the age before the reference: an import that puts after the age check can only lose its
 * blob if its put lands in the milliseconds between this sweep's `stat` and its `remove` — on a
 * blob that had already been orphaned for the whole grace period.
 */
export async function sweepUnreferencedBlobs(db: Db, store: BlobStore, options: BlobSweepOptions = {}): Promise<BlobSweepResult> {
  const graceMs = options.graceMs ?? DEFAULT_BLOB_GRACE_MS;
  if (!Number.isFinite(graceMs) || graceMs < 0) throw new Error(`grace period must be a non-negative number of ms, got ${graceMs}`);
  const now = options.now ?? Date.now;
  const dryRun = options.dryRun ?? false;
  const result: BlobSweepResult = { dryRun, graceMs, scanned: 0, referenced: 0, keptYoung: 0, removed: 0, vanished: 0, bytesFreed: 0, removedKeys: [] };
  const referenced = await referencedBlobKeys(db);
  const isYoung = (lastModified: Date) => now() - lastModified.getTime() < graceMs;
  for (const kind of KINDS) {
    for await (const listed of store.list(kind)) {
      result.scanned++;
      if (referenced.has(listed.key)) result.referenced++;
      else if (isYoung(listed.lastModified)) result.keptYoung++;
      else {
        const current = await store.stat(listed.key);
        if (current === null) result.vanished++;
        else if (isYoung(current.lastModified)) result.keptYoung++;
        else if (await isBlobReferenced(db, listed.key)) result.referenced++;
        else {
          if (!dryRun) await store.remove(listed.key);
          result.removed++;
          result.bytesFreed += current.bytes;
          result.removedKeys.push(listed.key);
        }
      }
    }
  }
  return result;
}
