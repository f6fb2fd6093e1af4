import { exportSession } from "@/server/ingest/api-v1/export-session";
import { SessionExportQuerySchema } from "@/server/ingest/api-v1/schemas";
import { apiError, invalidRequest, queryOf } from "@/server/ingest/api-v1/respond";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";

export const dynamic = "force-dynamic";

/** `GET /api/v1/sessions/{id}/export?as=jsonl|otlp`: the session as Tracefold JSONL or OTLP JSON (GenAI conventions), a file to download or import elsewhere. A `read` key or a viewer. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const query = SessionExportQuerySchema.safeParse(queryOf(request));
  if (!query.success) return invalidRequest(query.error);
  const exported = await exportSession(getDb(), (await params).id, query.data.as);
  if (!exported) return apiError(404, "not_found", "no such session");
  return new Response(exported.text, {
    headers: { "content-type": exported.contentType, "content-disposition": `attachment; filename="${exported.fileName}"` },
  });
}
