import { otlpTraceRoot, REQUEST_TYPE, RESPONSE_TYPE } from "./otlp-trace-proto";

/** A protobuf body that is not an ExportTraceServiceRequest; `message` is protobufjs' own, with the byte offset. */
export class MalformedProtobufError extends Error {}

/**
 * Decodes an `application/x-protobuf` export request into the OTLP JSON shape
 * (lib/ingest/otlp/otlp-request.ts validates both alike): camelCase field names, trace and span ids as
 * lowercase hex, 64-bit integers as decimal strings, enums as numbers, `bytesValue` as base64 —
 * the OTLP JSON encoding's rules.
 */
export function decodeOtlpProtobuf(body: Uint8Array): unknown {
  const type = otlpTraceRoot().lookupType(REQUEST_TYPE);
  let message;
  try {
    message = type.decode(body);
  } catch (error) {
    throw new MalformedProtobufError(
      `the body is not an OTLP ExportTraceServiceRequest in protobuf: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const object = type.toObject(message, { longs: String, enums: Number, bytes: Array, defaults: false, arrays: false, oneofs: false });
  return idsToHex(object);
}

/** Trace/span ids (byte arrays after toObject) to hex; other byte fields (`bytesValue`) to base64. */
function idsToHex(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) {
    if (key.endsWith("Id") || key === "bytesValue")
      return key === "bytesValue" ? Buffer.from(value as number[]).toString("base64") : Buffer.from(value as number[]).toString("hex");
    return value.map((item) => idsToHex(item));
  }
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, idsToHex(v, k)]));
  return value;
}

/** The protobuf ExportTraceServiceResponse (empty when nothing was rejected). */
export function encodeOtlpResponse(rejectedSpans: number, errorMessage: string): Uint8Array {
  const type = otlpTraceRoot().lookupType(RESPONSE_TYPE);
  const payload = rejectedSpans > 0 || errorMessage ? { partialSuccess: { rejectedSpans, errorMessage } } : {};
  return type.encode(type.fromObject(payload)).finish();
}
