import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { searchSession } from "@/server/trace/session/search-session";
import { apiOk, invalidRequest, SearchQuerySchema, sessionNotFound } from "@/server/trace/session/session-api";

export const dynamic = "force-dynamic";

/**
 * `GET /api/sessions/[id]/search?q=…`: message indexes with a snippet, in message order. A query
 * shaped like an object id (`function:read:3`, `conversation:user:2`) finds that object. Viewer role.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { id } = await params;
  const query = SearchQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return invalidRequest(query.error);
  const result = await searchSession(getDb(), id, query.data.q, query.data.limit !== undefined ? { limit: query.data.limit } : {});
  return result ? apiOk(result) : sessionNotFound();
}
