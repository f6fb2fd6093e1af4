import { z } from "zod";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import type { CompactErrorCode } from "@/server/compaction/compaction-api";
import { getCompactionJobResponse } from "@/server/compaction/compaction-jobs/get-compaction-job";

export const dynamic = "force-dynamic";

const IdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1–64 letters, digits, _ or -");

/**
 * `GET /api/sessions/[id]/compact/jobs/[jobId]`: the state of a compaction that calls the LLM,
 * queued by `POST /api/sessions/[id]/compact` (202): queued or running, then the same `data` the
 * synchronous answer carries, or the failure's code and message. The compaction page polls it.
 * Viewer role, like the page; 404 for an unknown job or a job of another session.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string; jobId: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { id, jobId } = await params;
  const session = IdSchema.safeParse(id);
  if (!session.success) return fail(400, "invalid_request", `session id: ${session.error.issues[0]!.message}`);
  const job = IdSchema.safeParse(jobId);
  if (!job.success) return fail(400, "invalid_request", `job id: ${job.error.issues[0]!.message}`);
  const body = await getCompactionJobResponse(getDb(), session.data, job.data);
  if (!body) return fail(404, "not_found", "no such compaction job for this session");
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}

function fail(status: number, code: CompactErrorCode, message: string): Response {
  return Response.json({ ok: false, code, message }, { status, headers: { "Cache-Control": "no-store" } });
}
