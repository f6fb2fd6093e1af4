import { isRecord, str } from "../../trace/json-lines";
import type { OtlpSpanJson, OtlpTraceRequest } from "./otlp-request";

/**
 * One span of an export request, ready to store: its ids (lowercase hex), its start time, the
 * conversation or session it names, and the record it is stored and rebuilt from — a complete
 * OTLP JSON request holding just this span with its resource and scope, so every stored span
 * re-imports on its own and a session is the concatenation of its spans' records.
 */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Unix nanoseconds as a digit string ("0" when absent). */
  startNs: string;
  /** `conversation:<id>` or `session:<id>`, or null: see groupKeyOf. */
  groupKey: string | null;
  hasGenAi: boolean;
  record: { resourceSpans: unknown[] };
}

/** Every span of a validated request, in request order. */
export function receivedSpans(request: OtlpTraceRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resourceAttributes = attributeMap(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        const attributes = attributeMap(span.attributes);
        const { scopeSpans: _all, ...resourceRest } = resourceSpans;
        const { spans: _spans, ...scopeRest } = scopeSpans;
        out.push({
          traceId: span.traceId.toLowerCase(),
          spanId: span.spanId.toLowerCase(),
          startNs: span.startTimeUnixNano === undefined ? "0" : String(span.startTimeUnixNano),
          groupKey: groupKeyOf(attributes, resourceAttributes),
          hasGenAi: hasGenAiContent(span, attributes),
          record: { resourceSpans: [{ ...resourceRest, scopeSpans: [{ ...scopeRest, spans: [span] }] }] },
        });
      }
    }
  }
  return out;
}

/**
 * The session a span names, by priority: `gen_ai.conversation.id`, then `session.id` (OpenInference,
 * OpenLLMetry, Langfuse), on the span or its resource. The prefixes sort so that for a trace whose
 * spans name both, the conversation wins (see sessionKeyOfTrace).
 */
export function groupKeyOf(attributes: Record<string, unknown>, resource: Record<string, unknown> = {}): string | null {
  const conversation = textOf(attributes["gen_ai.conversation.id"]) ?? textOf(resource["gen_ai.conversation.id"]);
  if (conversation) return `conversation:${conversation}`;
  const session = textOf(attributes["session.id"]) ?? textOf(resource["session.id"]);
  return session ? `session:${session}` : null;
}

/**
 * The session key of a whole trace, from the group keys its stored spans name: the smallest one
 * (conversation before session, then by text), else `trace:<traceId>`. Deterministic in the set
 * of spans, never in their arrival order — which is what makes out-of-order delivery converge.
 */
export function sessionKeyOfTrace(traceId: string, groupKeys: readonly (string | null)[]): string {
  const named = groupKeys.filter((k): k is string => !!k).sort();
  return named[0] ?? `trace:${traceId}`;
}

/**
 * The order a session's spans are built in: start time, then trace id, then span id. A total
 * order on the stored set, so the built session does not depend on arrival order (the importer
 * also sorts by start time, stably, and reports record positions as lines).
 */
export function compareSessionOrder(a: Pick<ReceivedSpan, "startNs" | "traceId" | "spanId">, b: Pick<ReceivedSpan, "startNs" | "traceId" | "spanId">): number {
  const width = Math.max(a.startNs.length, b.startNs.length);
  const [x, y] = [a.startNs.padStart(width, "0"), b.startNs.padStart(width, "0")];
  if (x !== y) return x < y ? -1 : 1;
  if (a.traceId !== b.traceId) return a.traceId < b.traceId ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

/** The id a session key gives its session (`externalId`): the conversation, session or trace id itself. */
export function externalIdOf(sessionKey: string): string {
  return sessionKey.slice(sessionKey.indexOf(":") + 1);
}

/** Whether a span carries anything GenAI: a `gen_ai.*`, `llm.*` or OpenInference attribute, or a `gen_ai.*` event. */
export function hasGenAiContent(span: OtlpSpanJson, attributes: Record<string, unknown> = attributeMap(span.attributes)): boolean {
  if (Object.keys(attributes).some((key) => GENAI_ATTRIBUTE.test(key))) return true;
  return (span.events ?? []).some((event) => str(event.name)?.startsWith("gen_ai.") ?? false);
}
const GENAI_ATTRIBUTE = /^(gen_ai\.|llm\.|openinference\.span\.kind$|tool\.name$)/;

/** OTLP JSON `[{key, value: {stringValue|intValue|…}}]` to a plain object of scalar values. */
export function attributeMap(list: readonly { key: string; value?: unknown }[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? [])
    out[key] = isRecord(value) ? (value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue) : undefined;
  return out;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return typeof value === "string" && value.trim() ? value : undefined;
}
