import type { Db } from "../../db/client";
import type { BlobStore } from "../../storage/blob-store";
import { otlpSessionKeyOf } from "../otlp/rebuild-otlp-session";
import { forgetAnalyzedSessions } from "../../trace/session/load-analyzed-session";
import { busySessions } from "./busy-sessions";
import { removeFreedBlobs } from "./remove-freed-blobs";

export interface DeletedUpload {
  uploadId: string;
  fileName: string;
  sessions: number;
}

export interface DeleteOutcome {
  deleted: DeletedUpload[];
  /** Uploads left alone, and why (a job still reads one of their sessions). */
  refused: { uploadId: string; fileName: string; reason: string }[];
  /** Blobs removed now: stored files, kept raw originals, sidecars the sessions' replays made. */
  blobsRemoved: number;
}

export interface DeleteOptions {
  now?: Date;
  /** See remove-freed-blobs.ts (tests pass 0). */
  freshMs?: number;
}

/**
 * Deletes uploads with everything that came from them (issue 15, item 7): the sessions and their
 * messages, objects, native compactions, compaction jobs and review contexts (cascades), the
 * redaction record, the sidecars their replays stored, an OTLP session's stored spans, then the
 * blobs no row names any more.
 * Evaluation results and review labels that used a session stay (they are people's and runs'
 * work); the run page marks the results whose session is gone. An upload whose sessions a queued
 * or running job reads is refused, named, and left whole. Rows go in one transaction per upload.
 */
export async function deleteUploads(db: Db, store: BlobStore, uploadIds: readonly string[], options: DeleteOptions = {}): Promise<DeleteOutcome> {
  const startedAt = options.now ?? new Date();
  const outcome: DeleteOutcome = { deleted: [], refused: [], blobsRemoved: 0 };
  const freed: string[] = [];
  for (const uploadId of uploadIds) {
    const upload = await db.upload.findUnique({
      where: { id: uploadId },
      select: { id: true, fileName: true, sha256: true, storageKey: true, sessions: { select: { id: true } } },
    });
    if (!upload) continue;
    const sessionIds = upload.sessions.map((s) => s.id);
    const deleted = await db.$transaction(async (tx): Promise<{ refused: string } | { keys: string[] }> => {
      const busy = await busySessions(tx, sessionIds);
      if (busy.length > 0) return { refused: busy[0]!.reason };
      const sidecars = await tx.sidecar.findMany({ where: { sessionId: { in: sessionIds } }, select: { storageKey: true } });
      const redaction = await tx.uploadRedaction.findUnique({ where: { uploadId }, select: { rawStorageKey: true } });
      await tx.sidecar.deleteMany({ where: { sessionId: { in: sessionIds } } });
      await tx.uploadRedaction.deleteMany({ where: { uploadId } });
      await tx.upload.delete({ where: { id: uploadId } });
      const otlpKey = otlpSessionKeyOf(upload);
      if (otlpKey) await tx.otlpSpan.deleteMany({ where: { sessionKey: otlpKey } });
      return { keys: [upload.storageKey, ...(redaction?.rawStorageKey ? [redaction.rawStorageKey] : []), ...sidecars.map((s) => s.storageKey)] };
    });
    if ("refused" in deleted) {
      outcome.refused.push({ uploadId, fileName: upload.fileName, reason: deleted.refused });
      continue;
    }
    forgetAnalyzedSessions(sessionIds);
    freed.push(...deleted.keys);
    outcome.deleted.push({ uploadId, fileName: upload.fileName, sessions: sessionIds.length });
  }
  outcome.blobsRemoved = (
    await removeFreedBlobs(db, store, freed, { startedAt, ...(options.freshMs !== undefined ? { freshMs: options.freshMs } : {}) })
  ).length;
  return outcome;
}

/** Uploads stored before `cutoff` (oldest first): what a retention of N days deletes. */
export async function uploadsOlderThan(db: Db, cutoff: Date): Promise<{ id: string; fileName: string; createdAt: Date; sessions: number }[]> {
  const rows = await db.upload.findMany({
    where: { createdAt: { lt: cutoff } },
    orderBy: { createdAt: "asc" },
    select: { id: true, fileName: true, createdAt: true, _count: { select: { sessions: true } } },
  });
  return rows.map((r) => ({ id: r.id, fileName: r.fileName, createdAt: r.createdAt, sessions: r._count.sessions }));
}
