import { getSessionSummary } from "@/server/ingest/api-v1/list-sessions-page";
import { apiError } from "@/server/ingest/api-v1/respond";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** `GET /api/v1/sessions/{id}`: one session's summary. A `read` key or a viewer. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const session = await getSessionSummary(getDb(), (await params).id);
  if (!session) return apiError(404, "not_found", "no such session");
  return Response.json({ ok: true, data: session });
}
