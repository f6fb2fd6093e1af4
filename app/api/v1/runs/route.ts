import { StartRunBodySchema } from "@/server/ingest/api-v1/schemas";
import { apiError, invalidRequest } from "@/server/ingest/api-v1/respond";
import { startRun } from "@/server/ingest/api-v1/start-run";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { kickEvalRunner } from "@/server/evaluation/eval-runner";
import { refuseCrossOrigin } from "@/server/security/same-origin";

export const dynamic = "force-dynamic";

/**
 * `POST /api/v1/runs` with `{ name?, settings }`: starts an evaluation run (201 `{ ok, data: { runId,
 * total } }`). A reviewer, or an `ingest` key — the key that sends traces in may also ask for them
 * to be evaluated; a `read` key may not.
 */
export async function POST(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("reviewer", { ingest: true });
  if (user instanceof Response) return user;
  let json: unknown;
  try {
    json = await request.json();
  } catch {
    return apiError(400, "invalid_request", 'the body must be JSON: { "name"?: string, "settings": {…} }');
  }
  const body = StartRunBodySchema.safeParse(json);
  if (!body.success) return invalidRequest(body.error);
  const db = getDb();
  const outcome = await startRun(db, body.data, user.apiKey ? user.apiKey.createdById : user.id);
  if (!outcome.ok) return apiError(outcome.code === "llm_unavailable" ? 409 : 400, outcome.code, outcome.message, outcome.fieldErrors);
  kickEvalRunner(db);
  return Response.json({ ok: true, data: { runId: outcome.runId, total: outcome.total } }, { status: 201 });
}
