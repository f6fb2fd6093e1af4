import protobuf from "protobufjs";

/**
 * The OTLP trace messages for protobufjs, transcribed from opentelemetry-proto v1
 * (`opentelemetry/proto/{collector/trace,trace,common,resource}/v1/*.proto`): the same package,
 * message names, field names and field numbers — that is the wire contract. Only comments and
 * options are left out; protobufjs skips any field a newer proto adds, as protobuf requires.
 *
 * Why protobufjs and not `@opentelemetry/otlp-transformer`: since 0.200 the transformer ships a
 * hand-written protobuf *writer* for requests and a reader for export *responses* only; its old
 * protobufjs-generated root (≤0.52) was internal, untyped and is gone. protobufjs is the maintained
 * decoder the OTel JS exporters themselves used for years (and @grpc/proto-loader builds on).
 */
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto.collector.trace.v1;

message ExportTraceServiceRequest { repeated opentelemetry.proto.trace.v1.ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
`;

const TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto.trace.v1;

message ResourceSpans {
  opentelemetry.proto.resource.v1.Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  string schema_url = 3;
}
message ScopeSpans {
  opentelemetry.proto.common.v1.InstrumentationScope scope = 1;
  repeated Span spans = 2;
  string schema_url = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  enum SpanKind {
    SPAN_KIND_UNSPECIFIED = 0; SPAN_KIND_INTERNAL = 1; SPAN_KIND_SERVER = 2;
    SPAN_KIND_CLIENT = 3; SPAN_KIND_PRODUCER = 4; SPAN_KIND_CONSUMER = 5;
  }
  SpanKind kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated opentelemetry.proto.common.v1.KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated opentelemetry.proto.common.v1.KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated opentelemetry.proto.common.v1.KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
}
message Status {
  string message = 2;
  enum StatusCode { STATUS_CODE_UNSET = 0; STATUS_CODE_OK = 1; STATUS_CODE_ERROR = 2; }
  StatusCode code = 3;
}
`;

const COMMON_PROTO = `
syntax = "proto3";
package opentelemetry.proto.common.v1;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
`;

const RESOURCE_PROTO = `
syntax = "proto3";
package opentelemetry.proto.resource.v1;

message Resource {
  repeated opentelemetry.proto.common.v1.KeyValue attributes = 1;
  uint32 dropped_attributes_count = 2;
}
`;

let root: protobuf.Root | undefined;

/** The parsed root (built once per process). */
export function otlpTraceRoot(): protobuf.Root {
  if (root) return root;
  const built = new protobuf.Root();
  for (const source of [COMMON_PROTO, RESOURCE_PROTO, TRACE_PROTO, OTLP_TRACE_PROTO]) protobuf.parse(source, built, { keepCase: false });
  built.resolveAll();
  root = built;
  return built;
}

export const REQUEST_TYPE = "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest";
export const RESPONSE_TYPE = "opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse";
