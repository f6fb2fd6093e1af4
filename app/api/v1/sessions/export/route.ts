import { exportSessionSet, selectExportSessions, sessionSetFile } from "@/server/ingest/api-v1/export-session-set";
import { apiError, invalidRequest, queryOf } from "@/server/ingest/api-v1/respond";
import { SessionSetExportQuerySchema } from "@/server/ingest/api-v1/schemas";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { refuseCrossOrigin } from "@/server/security/same-origin";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/sessions/export?as=jsonl|otlp&q=&format=` or `&ids=a,b,…`: a set of sessions as one
 * file (Tracefold JSONL, or OTLP JSON Lines: one request per session). A `read` key or a viewer.
 */
export async function GET(request: Request): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  return exportResponse(queryOf(request));
}

/**
 * The same as a form post (`ids`, `as`): the traces table exports exactly the rows it shows, more
 * ids than a URL holds. Read-only, but a POST: refused from another origin like every other.
 */
export async function POST(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return apiError(400, "invalid_request", "the body must be a form (application/x-www-form-urlencoded or multipart/form-data) with ids and as");
  }
  return exportResponse(Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string")));
}

async function exportResponse(input: Record<string, string>): Promise<Response> {
  const query = SessionSetExportQuerySchema.safeParse(input);
  if (!query.success) return invalidRequest(query.error);
  const db = getDb();
  const selection = await selectExportSessions(db, query.data);
  if (!selection.ok) return apiError(selection.status, selection.code, selection.message);
  const { fileName, contentType } = sessionSetFile(selection.ids.length, query.data.as);
  const chunks = exportSessionSet(db, selection.ids, query.data.as);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: { "content-type": contentType, "content-disposition": `attachment; filename="${fileName}"`, "x-tracefold-sessions": String(selection.ids.length) },
  });
}
