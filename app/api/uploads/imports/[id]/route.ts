import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getUploadImportResponse } from "@/server/trace/import/get-upload-import";

export const dynamic = "force-dynamic";

/**
 * `GET /api/uploads/imports/[id]`: the state of a large upload a job worker imports (queued,
 * importing, then the same body `PUT /api/uploads` answers for an imported or refused file); the
 * upload page polls it. Reviewer role or an `ingest` API key, like uploading.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("reviewer", { ingest: true });
  if (user instanceof Response) return user;
  const body = await getUploadImportResponse(getDb(), (await params).id);
  if (!body) return Response.json({ ok: false, code: "not_found", message: "no such upload import" }, { status: 404 });
  return Response.json(body);
}
