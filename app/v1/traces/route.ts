import { requireApiUser } from "@/server/auth/require";
import { receiveOtlpRequest } from "@/server/ingest/otlp/receive-otlp-request";
import { refuseCrossOrigin } from "@/server/security/same-origin";

export const dynamic = "force-dynamic";

/**
 * `POST /v1/traces`: the OTLP/HTTP trace endpoint, where OpenTelemetry exporters send by default
 * (`OTEL_EXPORTER_OTLP_ENDPOINT=https://studio`). JSON or protobuf, gzip; an `ingest` key
 * (`Authorization: Bearer tfk_…`) or a reviewer's session.
 */
export async function POST(request: Request): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  const user = await requireApiUser("reviewer", { ingest: true });
  if (user instanceof Response) return user;
  return receiveOtlpRequest(request, user);
}
