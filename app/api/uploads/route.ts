import { requireApiUser } from "@/server/auth/require";
import { refuseCrossOrigin } from "@/server/security/same-origin";
import { receiveUploadRequest } from "@/server/trace/import/upload-request";

/** Imports stream for minutes on big files; never cache or prerender this route. */
export const dynamic = "force-dynamic";

/**
 * `PUT /api/uploads?name=<file name>&format=<optional>` with the file's raw bytes as the body: the
 * upload page's route. Reviewer role or above, or an `ingest` API key; the answers are
 * receiveUploadRequest's (server/trace/import/upload-request.ts), shared with `POST /api/v1/uploads`.
 */
export async function PUT(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("reviewer", { ingest: true });
  if (user instanceof Response) return user;
  return receiveUploadRequest(request, user);
}
