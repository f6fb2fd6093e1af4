import type { Db } from "../../db/client";
import type { BlobStore } from "../../storage/blob-store";
import { forgetAnalyzedSessions } from "../../trace/session/load-analyzed-session";
import { busySessions } from "./busy-sessions";
import { deleteUploads, type DeleteOptions } from "./delete-uploads";
import { removeFreedBlobs } from "./remove-freed-blobs";

export type DeleteSessionOutcome =
  | { ok: true; sessionId: string; upload: "deleted" | "kept"; fileName: string; otherSessions: number; blobsRemoved: number }
  | { ok: false; code: "not_found" | "busy"; message: string };

/**
 * Deletes one session. When it is the only session of its upload, the upload goes with it, stored
 * file and all (deleteUploads). Otherwise the session's rows and sidecars go and the upload stays
 * for its other sessions — its stored file still holds this session's text, which the answer says
 * (`upload: "kept"`), so an admin who must erase it deletes the upload. Refused while a queued or
 * running job reads the session.
 */
export async function deleteSession(db: Db, store: BlobStore, sessionId: string, options: DeleteOptions = {}): Promise<DeleteSessionOutcome> {
  const session = await db.traceSession.findUnique({
    where: { id: sessionId },
    select: { id: true, uploadId: true, upload: { select: { fileName: true, _count: { select: { sessions: true } } } } },
  });
  if (!session) return { ok: false, code: "not_found", message: "no such session" };
  const fileName = session.upload.fileName;
  const others = session.upload._count.sessions - 1;
  if (others === 0) {
    const outcome = await deleteUploads(db, store, [session.uploadId], options);
    if (outcome.refused.length > 0) return { ok: false, code: "busy", message: `not deleted: ${outcome.refused[0]!.reason}` };
    return { ok: true, sessionId, upload: "deleted", fileName, otherSessions: 0, blobsRemoved: outcome.blobsRemoved };
  }
  const startedAt = options.now ?? new Date();
  const deleted = await db.$transaction(async (tx): Promise<{ refused: string } | { keys: string[] }> => {
    const busy = await busySessions(tx, [sessionId]);
    if (busy.length > 0) return { refused: busy[0]!.reason };
    const sidecars = await tx.sidecar.findMany({ where: { sessionId }, select: { storageKey: true } });
    await tx.sidecar.deleteMany({ where: { sessionId } });
    await tx.traceSession.delete({ where: { id: sessionId } });
    return { keys: sidecars.map((s) => s.storageKey) };
  });
  if ("refused" in deleted) return { ok: false, code: "busy", message: `not deleted: ${deleted.refused}` };
  forgetAnalyzedSessions([sessionId]);
  const removed = await removeFreedBlobs(db, store, deleted.keys, { startedAt, ...(options.freshMs !== undefined ? { freshMs: options.freshMs } : {}) });
  return { ok: true, sessionId, upload: "kept", fileName, otherSessions: others, blobsRemoved: removed.length };
}
