import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { OtlpTraceRequestSchema } from "../../../../lib/ingest/otlp/otlp-request";
import { attributeMap, receivedSpans } from "../../../../lib/ingest/otlp/received-span";
import { decodeOtlpProtobuf, encodeOtlpResponse, MalformedProtobufError } from "../../../../server/ingest/otlp/decode-otlp-protobuf";
import { otlpTraceRoot, RESPONSE_TYPE } from "../../../../server/ingest/otlp/otlp-trace-proto";

/** Spans recorded by the real OTel SDK, serialized by the official OTLP serializers both ways. */
function recordSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("decode-test");
  tracer.startActiveSpan("invoke_agent", (agent) => {
    agent.setAttributes({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.conversation.id": "conv-proto",
      "gen_ai.usage.input_tokens": 42,
      "llm.is_stream": true,
      score: 0.5,
    });
    tracer.startActiveSpan("chat", (chat) => {
      chat.setAttribute("gen_ai.input.messages", JSON.stringify([{ role: "user", parts: [{ type: "text", content: "hé ✓" }] }]));
      chat.addEvent("gen_ai.choice", { message: "ok" });
      chat.end();
    });
    agent.end();
  });
  return exporter.getFinishedSpans();
}

describe("OTLP protobuf requests decode to the OTLP JSON shape", () => {
  it("the official protobuf and JSON serializations of the same spans read alike", () => {
    const spans = recordSpans();
    const fromProto = receivedSpans(OtlpTraceRequestSchema.parse(decodeOtlpProtobuf(ProtobufTraceSerializer.serializeRequest(spans)!)));
    const fromJson = receivedSpans(OtlpTraceRequestSchema.parse(JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString("utf8"))));
    const view = (list: typeof fromProto) =>
      list.map((s) => {
        const span = (s.record.resourceSpans[0] as { scopeSpans: { spans: { attributes: { key: string; value: unknown }[] }[] }[] }).scopeSpans[0]!.spans[0]!;
        // OTLP JSON allows an int64 as a number or a decimal string: the JSON serializer writes numbers, protobuf decodes to strings.
        const attributes = Object.fromEntries(
          Object.entries(attributeMap(span.attributes)).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v]),
        );
        return { traceId: s.traceId, spanId: s.spanId, startNs: s.startNs, groupKey: s.groupKey, hasGenAi: s.hasGenAi, attributes };
      });
    assert.equal(fromProto.length, 2);
    assert.deepEqual(view(fromProto), view(fromJson));
    const agent = view(fromProto).find((s) => s.groupKey === "conversation:conv-proto")!;
    assert.match(agent.traceId, /^[0-9a-f]{32}$/);
    assert.equal(agent.attributes["gen_ai.usage.input_tokens"], 42);
    assert.equal(agent.attributes["score"], 0.5);
    assert.equal(spans.find((s) => s.name === "invoke_agent")!.spanContext().spanId, agent.spanId);
  });

  it("bytes that are not a request are refused with protobufjs' reason", () => {
    assert.throws(() => decodeOtlpProtobuf(Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01])), MalformedProtobufError);
  });

  it("the partial-success response round-trips; full success is the empty message", () => {
    const type = otlpTraceRoot().lookupType(RESPONSE_TYPE);
    const decoded = type.toObject(type.decode(encodeOtlpResponse(3, "3 spans had no GenAI attribute")), { longs: Number });
    assert.deepEqual(decoded, { partialSuccess: { rejectedSpans: 3, errorMessage: "3 spans had no GenAI attribute" } });
    assert.equal(encodeOtlpResponse(0, "").length, 0);
  });
});
