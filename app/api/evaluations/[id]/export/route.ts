import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { buildReproductionPackage } from "@/server/evaluation/export/build-package";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * `GET /api/evaluations/[id]/export`: the run's reproduction package as a zip download (viewer
 * role). 404 for an unknown run, 409 with the reason for a run that has not finished.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const outcome = await buildReproductionPackage(getDb(), (await params).id);
  if (!outcome.ok) return Response.json({ ok: false, code: outcome.code, message: outcome.message }, { status: outcome.code === "not_found" ? 404 : 409 });
  const size = outcome.chunks.reduce((n, c) => n + c.byteLength, 0);
  const chunks = [...outcome.chunks];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "application/zip",
      "content-length": String(size),
      "content-disposition": `attachment; filename="${outcome.filename}"`,
      "cache-control": "no-store",
    },
  });
}
