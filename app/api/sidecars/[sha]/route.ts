import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { publicMessage } from "@/server/errors/public-error";
import { readSidecar } from "@/server/compaction/read-sidecar";
import { getBlobStore } from "@/server/storage/configured-blob-store";

export const dynamic = "force-dynamic";

/**
 * `GET /api/sidecars/[sha]`: the exact bytes a fold moved out of the view, verified against their
 * sha256 (echoed in `X-Content-SHA256`). Content-addressed, so safe to cache. 404 for unknown or
 * malformed digests (only 64 lowercase hex characters are looked up). Viewer role.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ sha: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { sha } = await params;
  let sidecar;
  try {
    sidecar = await readSidecar(getDb(), getBlobStore(), sha);
  } catch (error) {
    return Response.json({ ok: false, code: "internal", message: `the sidecar could not be read: ${publicMessage(error, `sidecar ${sha}`)}` }, { status: 500 });
  }
  if (!sidecar) return Response.json({ ok: false, code: "not_found", message: "no such sidecar" }, { status: 404 });
  return new Response(new Uint8Array(sidecar.bytes), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": String(sidecar.bytes.length),
      "Content-Disposition": `attachment; filename="sidecar-${sha}.txt"`,
      "X-Content-SHA256": sha,
      "X-Sidecar-Target": encodeURIComponent(sidecar.target),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=31536000, immutable",
    },
  });
}
