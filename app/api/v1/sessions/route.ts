import { SessionListQuerySchema } from "@/server/ingest/api-v1/schemas";
import { listSessionsPage } from "@/server/ingest/api-v1/list-sessions-page";
import { apiError, invalidRequest, queryOf } from "@/server/ingest/api-v1/respond";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** `GET /api/v1/sessions?q=&format=&limit=&cursor=`: sessions newest first, a page at a time. A `read` key or a viewer. */
export async function GET(request: Request): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const query = SessionListQuerySchema.safeParse(queryOf(request));
  if (!query.success) return invalidRequest(query.error);
  const page = await listSessionsPage(getDb(), query.data);
  if (!page.ok) return apiError(400, page.code, page.message);
  return Response.json(page);
}
