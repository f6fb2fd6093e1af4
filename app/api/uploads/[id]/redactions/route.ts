import { z } from "zod";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getUploadRedaction } from "@/server/trace/import/redaction-report";

export const dynamic = "force-dynamic";

const IdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "the upload id must be 1–64 letters, digits, _ or -");

/**
 * `GET /api/uploads/<id>/redactions` — what was redacted from an upload before it was stored: the
 * located report (kind, line, offsets, fingerprint; never the secret) and whether the raw original
 * is kept. Any signed-in user (it holds nothing the traces themselves do not). `data` is null for
 * uploads imported before redaction existed.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const id = IdSchema.safeParse((await params).id);
  if (!id.success) return Response.json({ ok: false, code: "invalid_request", message: id.error.issues[0]!.message }, { status: 400 });
  const db = getDb();
  const upload = await db.upload.findUnique({ where: { id: id.data }, select: { id: true, fileName: true } });
  if (!upload) return Response.json({ ok: false, code: "not_found", message: "no such upload" }, { status: 404 });
  const redaction = await getUploadRedaction(db, upload.id);
  return Response.json({ ok: true, data: { uploadId: upload.id, fileName: upload.fileName, redaction } }, { headers: { "Cache-Control": "no-store" } });
}
