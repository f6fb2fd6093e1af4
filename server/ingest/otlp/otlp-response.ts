import { encodeOtlpResponse } from "./decode-otlp-protobuf";

export type OtlpEncoding = "json" | "protobuf";

/**
 * The success answer of OTLP/HTTP: 200 with an ExportTraceServiceResponse in the request's
 * encoding — empty (`{}`) when every span was accepted, `partialSuccess` with the rejected count
 * and why otherwise (exporters log it and do not retry: the rejection is permanent).
 */
export function otlpAnswer(encoding: OtlpEncoding, rejectedSpans: number, errorMessage: string): Response {
  if (encoding === "protobuf") {
    return new Response(Buffer.from(encodeOtlpResponse(rejectedSpans, errorMessage)), { status: 200, headers: { "content-type": "application/x-protobuf" } });
  }
  return Response.json(rejectedSpans > 0 ? { partialSuccess: { rejectedSpans, errorMessage } } : {}, { status: 200 });
}

/**
 * A refusal: the API's JSON error shape (`{ok: false, code, message}`), whose `message` is also
 * what OTLP's Status carries, so an exporter's log shows it whatever encoding it sent. 4xx other
 * than 429 tell exporters not to retry; nothing of the request was stored.
 */
export function otlpRefusal(status: number, code: string, message: string): Response {
  return Response.json({ ok: false, code, message }, { status });
}
