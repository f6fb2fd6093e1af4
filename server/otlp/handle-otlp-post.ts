import { requireApiUser } from "../auth/require";
import { refuseCrossOrigin } from "../security/same-origin";
import { receiveOtlpRequest } from "./receive-otlp-request";

/**
 * Both OTLP routes (`/v1/traces`, `/api/v1/otlp/v1/traces`): the origin check (bearer requests
 * pass it), an `ingest` API key in `Authorization: Bearer tfk_…` or a reviewer's session, then the
 * export itself.
 */
export async function handleOtlpPost(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("reviewer", { ingest: true });
  if (user instanceof Response) return user;
  return receiveOtlpRequest(request, user);
}
