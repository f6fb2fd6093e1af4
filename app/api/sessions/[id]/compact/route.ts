import { requireApiUser } from "@/server/auth/require";
import { refuseCrossOrigin } from "@/server/security/same-origin";
import { getDb } from "@/server/db/client";
import { publicMessage } from "@/server/errors/public-error";
import { getJobQueue } from "@/server/jobs/process-queue";
import { CompactRequestSchema, type CompactErrorCode, type CompactJobResponse, type CompactResponse } from "@/server/compaction/compaction-api";
import { requestCompaction } from "@/server/compaction/compaction-jobs/request-compaction";
import { getBlobStore } from "@/server/storage/configured-blob-store";

export const dynamic = "force-dynamic";

/**
 * `POST /api/sessions/[id]/compact` with `{ policy, cut?, window?, params? }`: runs the policy at the
 * cut (default: the last safe cut) and window (default: the prefix at 90% of it), persists its
 * sidecars, and returns the projected view, the fate of every original part, the decisions and the
 * safe cuts. 400 for a bad body, policy, cut or parameter; 404 for an unknown session. Viewer role.
 * A run that calls the LLM (self-gc with planner=llm) is not run here: it is queued as a job a
 * worker executes, and the answer is 202 with `{ ok, jobId, status: "queued" }`; the page polls
 * `GET /api/sessions/[id]/compact/jobs/[jobId]` (server/compaction/compaction-jobs/). An unexpected
 * failure answers 500 with `internal error (ref <id>)`, the whole error logged under that id.
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { id } = await params;
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return fail(400, "invalid_request", "the body must be a JSON object");
  }
  const input = CompactRequestSchema.safeParse(body);
  if (!input.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of input.error.issues) (fieldErrors[issue.path.join(".") || "_"] ??= []).push(issue.message);
    const message = input.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    return Response.json({ ok: false, code: "invalid_request", message, fieldErrors } satisfies CompactResponse, { status: 400 });
  }
  try {
    const outcome = await requestCompaction(getDb(), getBlobStore(), () => getJobQueue(), { sessionId: id, request: input.data, userId: user.id });
    if (outcome.kind === "done") return Response.json({ ok: true, data: outcome.data } satisfies CompactResponse);
    if (outcome.kind === "queued")
      return Response.json({ ok: true, jobId: outcome.jobId, status: "queued", attempts: 0 } satisfies CompactJobResponse, { status: 202 });
    return fail(outcome.code === "not_found" ? 404 : 400, outcome.code, outcome.message);
  } catch (error) {
    return fail(500, "internal", `the policy run failed: ${publicMessage(error, `compact ${id}`)}`);
  }
}

function fail(status: number, code: CompactErrorCode, message: string): Response {
  return Response.json({ ok: false, code, message } satisfies CompactResponse, { status });
}
