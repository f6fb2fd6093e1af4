import { z } from "zod";

/**
 * The OTLP/HTTP trace export request in its JSON encoding (ExportTraceServiceRequest), as far as
 * the receiver reads it. Protobuf requests are decoded into this same shape first
 * (server/ingest/otlp/decode-otlp-protobuf.ts), so one schema validates both. Unknown fields pass through
 * untouched (they stay in the stored span); the fields the receiver relies on are checked, and a
 * failure names its path (`resourceSpans[0].scopeSpans[1].spans[3].spanId`).
 */
const HEX = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`), `${bytes * 2} hex digits`);
/** Unix nanoseconds: OTLP JSON writes them as digit strings; some encoders as numbers. */
const NanosSchema = z.union([z.string().regex(/^\d+$/, "a decimal digit string"), z.number().int().nonnegative()]);

export const OtlpKeyValueSchema = z.looseObject({ key: z.string(), value: z.unknown().optional() });
export const OtlpSpanSchema = z.looseObject({
  traceId: HEX(16),
  spanId: HEX(8),
  name: z.string().optional(),
  startTimeUnixNano: NanosSchema.optional(),
  attributes: z.array(OtlpKeyValueSchema).optional(),
  events: z.array(z.looseObject({ name: z.string().optional(), attributes: z.array(OtlpKeyValueSchema).optional() })).optional(),
});
export const OtlpTraceRequestSchema = z.looseObject({
  resourceSpans: z
    .array(
      z.looseObject({
        resource: z.looseObject({ attributes: z.array(OtlpKeyValueSchema).optional() }).optional(),
        scopeSpans: z.array(z.looseObject({ scope: z.unknown().optional(), spans: z.array(OtlpSpanSchema).optional() })).optional(),
      }),
    )
    .optional(),
});
export type OtlpSpanJson = z.infer<typeof OtlpSpanSchema>;
export type OtlpTraceRequest = z.infer<typeof OtlpTraceRequestSchema>;

/** `resourceSpans[0].scopeSpans[1].spans[3].spanId: 16 hex digits` for each problem, in request order. */
export function describeRequestProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "") || "request";
}
