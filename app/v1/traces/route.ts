import { handleOtlpPost } from "@/server/otlp/handle-otlp-post";

export const dynamic = "force-dynamic";

/**
 * `POST /v1/traces`: the OTLP/HTTP trace endpoint, where OpenTelemetry exporters send by default
 * (`OTEL_EXPORTER_OTLP_ENDPOINT=https://studio`). JSON or protobuf, gzip; an ingest key.
 */
export async function POST(request: Request): Promise<Response> {
  return handleOtlpPost(request);
}
