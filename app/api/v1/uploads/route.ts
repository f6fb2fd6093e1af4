import { requireApiUser } from "@/server/auth/require";
import { refuseCrossOrigin } from "@/server/security/same-origin";
import { receiveUploadRequest } from "@/server/trace/import/upload-request";

export const dynamic = "force-dynamic";

/**
 * `POST /api/v1/uploads?name=<file name>&format=<optional>` with the file's raw bytes as the body:
 * one trace file, redacted and imported exactly as the upload page's `PUT /api/uploads`. An
 * `ingest` API key or a reviewer's session.
 */
export async function POST(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("reviewer", { ingest: true });
  if (user instanceof Response) return user;
  return receiveUploadRequest(request, user);
}
