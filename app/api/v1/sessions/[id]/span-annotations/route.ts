import { apiError } from "@/server/ingest/api-v1/respond";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { sessionSpanAnnotations } from "@/server/review/session-span-annotations";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/sessions/{id}/span-annotations`: the session's current review labels as Phoenix /
 * OpenInference span annotations (`{data: [...]}`, the body of Phoenix's `POST /v1/span_annotations`),
 * pointing at the spans of `export?as=otlp`. A `read` key or a viewer.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { id } = await params;
  const annotations = await sessionSpanAnnotations(getDb(), id);
  if (!annotations) return apiError(404, "not_found", "no such session");
  return new Response(JSON.stringify(annotations), {
    headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="${id}.span-annotations.json"` },
  });
}
