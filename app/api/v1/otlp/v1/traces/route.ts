import { handleOtlpPost } from "@/server/otlp/handle-otlp-post";

export const dynamic = "force-dynamic";

/**
 * `POST /api/v1/otlp/v1/traces`: the same OTLP endpoint under the API prefix, for exporters pointed
 * at `OTEL_EXPORTER_OTLP_ENDPOINT=https://studio/api/v1/otlp` (as Langfuse's /api/public/otel).
 */
export async function POST(request: Request): Promise<Response> {
  return handleOtlpPost(request);
}
