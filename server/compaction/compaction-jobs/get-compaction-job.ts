import type { Db } from "../../db/client";
import type { CompactData, CompactErrorCode, CompactJobResponse } from "../compaction-api";

/**
 * What `GET /api/sessions/[id]/compact/jobs/[jobId]` answers: the job's state, with the stored
 * CompactData once done (the body the synchronous answer carries) or the code and message once
 * failed. Null when there is no such job for this session — a job of another session is not
 * revealed, so the page's URL cannot be used to read another session's compaction.
 */
export async function getCompactionJobResponse(db: Db, sessionId: string, jobId: string): Promise<CompactJobResponse | null> {
  const row = await db.compactionJob.findUnique({ where: { id: jobId } });
  if (!row || row.sessionId !== sessionId) return null;
  if (row.status === "done" && row.result) return { ok: true, jobId: row.id, status: "done", data: JSON.parse(row.result) as CompactData };
  if (row.status === "failed")
    return {
      ok: false,
      jobId: row.id,
      status: "failed",
      code: (row.errorCode ?? "internal") as CompactErrorCode,
      message: row.error ?? "the compaction failed",
    };
  return { ok: true, jobId: row.id, status: row.status === "running" ? "running" : "queued", attempts: row.attempts };
}
