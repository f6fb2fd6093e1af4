import { openApiDocument } from "@/server/ingest/api-v1/openapi";
import { requireApiUser } from "@/server/auth/require";

export const dynamic = "force-dynamic";

/** `GET /api/v1/openapi.json`: the API's OpenAPI 3.1 document. Any signed-in user or key. */
export async function GET(): Promise<Response> {
  const user = await requireApiUser("viewer", { ingest: true });
  if (user instanceof Response) return user;
  return Response.json(openApiDocument());
}
