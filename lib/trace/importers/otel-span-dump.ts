import type { IssueList } from "../importer";
import { isRecord, str } from "../json-lines";
import type { Span, SpanEvent } from "./otel-genai-messages";

/**
 * Span dumps to the importer's span model, for otel-genai.ts and the importers sharing its parser
 * (OpenInference, OpenLLMetry): the containers (`{spans}`, a bare array, OTLP JSON, or one span's
 * bare attribute map as OpenInference fixtures are written), SDK versus OTLP spellings of ids, times
 * and attributes, and nested attribute objects flattened to the dotted keys conventions name.
 */
/** Deep enough to locate OTLP spans (`resourceSpans[0].scopeSpans[0].spans[3]`). */
export const SPAN_LOCATE_DEPTH = 6;

export type LineOf = (field: string) => number;

export function collectSpans(value: unknown, lineOf: LineOf, issues: IssueList): Span[] {
  if (Array.isArray(value)) return value.flatMap((raw, i) => normalizeSpan(raw, `[${i}]`, lineOf, issues));
  if (isRecord(value) && Array.isArray(value.spans)) return value.spans.flatMap((raw, i) => normalizeSpan(raw, `spans[${i}]`, lineOf, issues));
  if (isRecord(value) && Array.isArray(value.resourceSpans)) return collectOtlpSpans(value.resourceSpans, lineOf, issues);
  if (isRecord(value) && isBareAttributeMap(value)) return normalizeSpan({ attributes: value }, "", lineOf, issues);
  issues.error(lineOf(""), "not a span dump", undefined, "{spans: [...]}, an array of spans, or OTLP {resourceSpans: [...]}");
  return [];
}

function collectOtlpSpans(resourceSpans: unknown[], lineOf: LineOf, issues: IssueList): Span[] {
  const spans: Span[] = [];
  resourceSpans.forEach((resource, r) => {
    const scopes = isRecord(resource) ? (resource.scopeSpans ?? resource.instrumentationLibrarySpans) : undefined;
    if (!Array.isArray(scopes)) return;
    scopes.forEach((scope, s) => {
      if (!isRecord(scope) || !Array.isArray(scope.spans)) return;
      scope.spans.forEach((raw, i) => spans.push(...normalizeSpan(raw, `resourceSpans[${r}].scopeSpans[${s}].spans[${i}]`, lineOf, issues)));
    });
  });
  return spans;
}

/** One span's attributes written alone (OpenInference test fixtures): dotted keys, a span kind or indexed messages. */
function isBareAttributeMap(value: Record<string, unknown>): boolean {
  return (
    typeof value["openinference.span.kind"] === "string" ||
    Object.keys(value).some((key) => /^(llm\.(input|output)_messages|gen_ai\.(prompt|completion))\.\d+\./.test(key))
  );
}

/** SDK dumps say `context.trace_id` / `start_time` / `status.status_code`; OTLP `traceId` / `startTimeUnixNano` / `status.code`. */
function normalizeSpan(raw: unknown, field: string, lineOf: LineOf, issues: IssueList): Span[] {
  const line = lineOf(field);
  if (!isRecord(raw)) {
    issues.error(line, "span is not an object", field, "{name, start_time, attributes, …}");
    return [];
  }
  const context = isRecord(raw.context) ? raw.context : {};
  const traceId = raw.traceId ?? raw.trace_id ?? context.trace_id;
  const spanId = raw.spanId ?? raw.span_id ?? context.span_id;
  const parentId = raw.parentSpanId ?? raw.parent_span_id ?? raw.parent_id ?? (isRecord(raw.parent) ? raw.parent.span_id : undefined);
  const status = isRecord(raw.status) ? (raw.status.status_code ?? raw.status.code) : undefined;
  const startMs = timeMs(raw.start_time ?? raw.startTimeUnixNano ?? raw.startTime);
  const events = (Array.isArray(raw.events) ? raw.events : []).flatMap((event, i) => readEvent(event, `${field}.events[${i}]`));
  return [
    {
      traceKey: traceId === undefined ? "" : String(traceId),
      ...(typeof traceId === "string" && traceId ? { traceId } : {}),
      ...(idText(spanId) ? { spanKey: idText(spanId) } : {}),
      ...(idText(parentId) ? { parentKey: idText(parentId) } : {}),
      ...(startMs !== undefined ? { startMs } : {}),
      attributes: withOperationDetails(readAttributes(isRecord(raw.span_attributes) ? raw.span_attributes : raw.attributes), events),
      events,
      isError: ["error", "ERROR", "STATUS_CODE_ERROR", 2].includes(status as string | number),
      field,
      line,
    },
  ];
}

/**
 * Semantic conventions ≥ 1.37 may carry the messages on one span event,
 * `gen_ai.client.inference.operation.details`, instead of span attributes (so they can be sent as
 * log records): its `gen_ai.input.messages`, `gen_ai.output.messages` and
 * `gen_ai.system_instructions` are read as if they were the span's, unless the span has its own.
 */
function withOperationDetails(attributes: Record<string, unknown>, events: SpanEvent[]): Record<string, unknown> {
  const details = events.find((e) => e.name === "gen_ai.client.inference.operation.details");
  if (!details) return attributes;
  const merged = { ...attributes };
  for (const key of DETAIL_ATTRIBUTES) if (!(key in merged) && key in details.attributes) merged[key] = details.attributes[key];
  return merged;
}
const DETAIL_ATTRIBUTES = ["gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions"];

function readEvent(event: unknown, field: string): SpanEvent[] {
  if (!isRecord(event) || !str(event.name)) return [];
  const ms = timeMs(event.timestamp ?? event.timeUnixNano ?? event.time);
  return [{ name: str(event.name)!, ...(ms !== undefined ? { timeMs: ms } : {}), attributes: readAttributes(event.attributes), field }];
}

/** Span ids as text (SDK dumps may write them as decimal numbers); "" and null are no id. */
function idText(value: unknown): string | undefined {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return typeof value === "string" && value ? value : undefined;
}

/**
 * SDK dumps keep attributes as an object; OTLP JSON as `[{key, value: {stringValue|intValue|…}}]`.
 * Backend exports (AgentOps) nest them instead (`{gen_ai: {completion: [{"0": {role}}]}}`): nested
 * objects are flattened to the dotted keys the conventions name (`gen_ai.completion.0.role`), the
 * elements of an array of `{"<index>": …}` objects merged, as they are one indexed object split up.
 */
function readAttributes(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return flattenAttributes(raw);
  if (!Array.isArray(raw)) return {};
  const out: Record<string, unknown> = {};
  for (const entry of raw) if (isRecord(entry) && str(entry.key)) out[str(entry.key)!] = otlpValue(entry.value);
  return out;
}

function otlpValue(value: unknown): unknown {
  if (!isRecord(value)) return value;
  if ("stringValue" in value) return value.stringValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return Number(value.doubleValue);
  if ("boolValue" in value) return value.boolValue;
  if (isRecord(value.arrayValue)) return Array.isArray(value.arrayValue.values) ? value.arrayValue.values.map(otlpValue) : [];
  if (isRecord(value.kvlistValue)) return readAttributes(value.kvlistValue.values);
  return undefined;
}

/**
 * Span times come as unix nanoseconds (a JSON number, already rounded past 2^53, or an OTLP digit
 * string, split so no precision is lost) or as ISO text. Milliseconds suffice.
 */
function timeMs(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value / 1e6;
  if (typeof value !== "string") return undefined;
  if (/^\d+$/.test(value)) return Number(value.slice(0, -6) || "0") + Number(`0.${value.slice(-6).padStart(6, "0")}`);
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

function flattenAttributes(raw: Record<string, unknown>, prefix = "", out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(raw)) {
    const name = `${prefix}${key}`;
    const merged = isIndexSplitArray(value) ? Object.assign({}, ...value) : value;
    if (isRecord(merged) && Object.keys(merged).length > 0) flattenAttributes(merged, `${name}.`, out);
    else out[name] = value;
  }
  return out;
}

function isIndexSplitArray(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => isRecord(v) && Object.keys(v).every((k) => /^\d+$/.test(k)));
}
