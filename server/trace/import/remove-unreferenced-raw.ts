import type { Db } from "../../db/client";
import type { BlobStore } from "../../storage/blob-store";

/**
 * Removes a raw original an import stored, unless an upload's redaction report refers to it. Raw
 * originals are content-addressed: the same bytes imported at the same moment elsewhere (an upload,
 * `tracefold import`) find the blob this import created, and their import may commit first (this
 * one then ends `duplicate`) — deleting on `created` alone would take the winner's original away.
 */
export async function removeUnreferencedRaw(db: Db, store: BlobStore, key: string): Promise<void> {
  if (!(await db.uploadRedaction.findFirst({ where: { rawStorageKey: key }, select: { uploadId: true } }))) await store.remove(key);
}
