import { toChatMessages } from "./importers/otel-genai-messages";
import type { Message, Session, ToolResultPart, Usage } from "./model";
import { otlpAgentSpanId, otlpChatSpanId, otlpSpanId, otlpTraceId } from "./export-otlp-ids";
import { toGenAiMessages, toGenAiOutputMessages, type GenAiMessage } from "./export-otlp-messages";

/**
 * A session as OTLP JSON (an `ExportTraceServiceRequest`: resourceSpans → scopeSpans → spans) in
 * the OpenTelemetry GenAI semantic conventions, so Phoenix, Langfuse or any OTLP backend can take
 * a Tracefold session, and Tracefold's own OTel importer reads it back.
 *
 * One trace per session: a root `invoke_agent` span (`gen_ai.conversation.id` = the session id),
 * one `chat` span per assistant message (input = the messages since the previous call, output =
 * the message, model and usage), one `execute_tool` span per tool result that answers an earlier
 * call, and a last input-only `chat` span for messages after the final answer. Span times are the
 * message timestamps made strictly increasing (1 ms apart where missing or out of order), because
 * importers order spans by start time.
 *
 * Round trip (tests/unit/trace/export-otlp-json.test.ts): the importer yields the same roles,
 * texts, tool calls (id, name, arguments) and tool results (call id, content, error flag) in the
 * same order. Lossy, by design of the convention: message grouping (each tool result becomes its own
 * message; a tool message's text comes back as a user message), part order inside a message
 * (reasoning, then text, then calls), input messages' timestamps (they take their call's time),
 * compactions, message and session `meta` apart from the agent name, image sizes, the text of
 * `other` parts, and a repeated result for an already answered call. Ids are derived from `seed`
 * (export-otlp-ids.ts).
 */
export function toOtlpJson(session: Session, options: { seed?: string; serviceName?: string } = {}): OtlpTraceRequest {
  const seed = options.seed ?? session.id;
  const traceId = otlpTraceId(seed);
  const clock = spanClock(session);
  const callNames = new Map(session.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === "tool_call" ? [[p.id, p.name] as const] : []))));
  const conversation = [str("gen_ai.conversation.id", session.id)];
  const root = otlpAgentSpanId(seed);
  const span = (spanId: string, name: string, kind: number, startMs: number, attributes: OtlpAttribute[], isError = false): OtlpSpan => ({
    traceId,
    spanId,
    parentSpanId: root,
    name,
    kind,
    startTimeUnixNano: nanos(startMs),
    endTimeUnixNano: nanos(startMs),
    attributes: [...attributes, ...conversation],
    status: isError ? { code: 2 } : {},
  });
  const spans: OtlpSpan[] = [];
  /** Calls still waiting for their result (ids may be reused by a later call: tau-bench does). */
  const open = new Set<string>();
  const history: GenAiMessage[] = [];
  let gap: GenAiMessage[] = [];
  let gapHasOtherParts = false;
  let firstInputKey: string | undefined;
  /** Inputs of the next call: the gap, or the whole history when the importer would take the gap for a repeat of it (otel-genai.ts `addInputs`). */
  const inputsOf = (messages: GenAiMessage[]): GenAiMessage[] => {
    const key = firstChatKey(messages);
    if (key === undefined) return messages;
    if (firstInputKey === undefined) firstInputKey = key;
    else if (key === firstInputKey) return [...history, ...messages];
    return messages;
  };
  for (const message of session.messages) {
    const at = clock(message);
    if (message.role === "assistant") {
      const inputs = inputsOf(gap);
      const outputs = toGenAiOutputMessages(message);
      const model = message.model;
      spans.push(
        span(otlpChatSpanId(seed, message.index), model ? `chat ${model}` : "chat", SPAN_KIND_CLIENT, at, [
          str("gen_ai.operation.name", "chat"),
          ...(model ? [str("gen_ai.request.model", model)] : []),
          ...(inputs.length ? [str("gen_ai.input.messages", JSON.stringify(inputs))] : []),
          str("gen_ai.output.messages", JSON.stringify(outputs)),
          ...usageAttributes(message.usage),
        ]),
      );
      history.push(...gap, ...outputs);
      gap = [];
      gapHasOtherParts = false;
      for (const part of message.parts) if (part.type === "tool_call") open.add(part.id);
      continue;
    }
    message.parts.forEach((part, j) => {
      // A result gets its own span only while nothing else came since the call (the importer adds span results before the next call's inputs) and only for a known, unanswered call.
      if (part.type === "tool_result" && !gapHasOtherParts && open.has(part.callId)) {
        spans.push(
          span(
            otlpSpanId(seed, `tool:${message.index}:${j}`),
            `execute_tool ${toolName(part, callNames)}`,
            SPAN_KIND_INTERNAL,
            at,
            toolAttributes(part, callNames),
            part.isError === true,
          ),
        );
      } else if (part.type !== "tool_result") gapHasOtherParts = true;
      if (part.type === "tool_result") open.delete(part.callId);
    });
    gap.push(...toGenAiMessages(message));
  }
  const tail = inputsOf(gap);
  if (gap.length)
    spans.push(
      span(otlpSpanId(seed, "chat:end"), "chat", SPAN_KIND_CLIENT, clock(undefined), [
        str("gen_ai.operation.name", "chat"),
        str("gen_ai.input.messages", JSON.stringify(tail)),
      ]),
    );
  return {
    resourceSpans: [
      {
        resource: { attributes: [str("service.name", options.serviceName ?? "tracefold-export")] },
        scopeSpans: [{ scope: { name: "tracefold" }, spans: [rootSpan(session, traceId, root, spans), ...spans] }],
      },
    ],
  };
}

/** OTLP JSON types (the subset written): attribute values are tagged, 64-bit integers are decimal strings. */
export interface OtlpAttribute {
  key: string;
  value: { stringValue: string } | { intValue: string };
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  status: { code?: number };
}
export interface OtlpTraceRequest {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

const SPAN_KIND_INTERNAL = 1;
const SPAN_KIND_CLIENT = 3;

function rootSpan(session: Session, traceId: string, spanId: string, children: OtlpSpan[]): OtlpSpan {
  const agent = typeof session.meta?.agent === "string" ? session.meta.agent : undefined;
  const start = children[0]?.startTimeUnixNano ?? nanos(Date.parse(session.startedAt ?? "") || 0);
  return {
    traceId,
    spanId,
    name: agent ? `invoke_agent ${agent}` : "invoke_agent",
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: start,
    endTimeUnixNano: children[children.length - 1]?.endTimeUnixNano ?? start,
    attributes: [
      str("gen_ai.operation.name", "invoke_agent"),
      str("gen_ai.conversation.id", session.id),
      ...(agent ? [str("gen_ai.agent.name", agent)] : []),
      str("tracefold.session.title", session.title),
      str("tracefold.session.format", session.format),
      ...usageAttributes(session.usage),
    ],
    status: {},
  };
}

function toolAttributes(part: ToolResultPart, callNames: ReadonlyMap<string, string>): OtlpAttribute[] {
  return [
    str("gen_ai.operation.name", "execute_tool"),
    str("gen_ai.tool.name", toolName(part, callNames)),
    str("gen_ai.tool.call.id", part.callId),
    str("gen_ai.tool.type", "function"),
    str("gen_ai.tool.call.result", part.content),
  ];
}

/** The result's own name, else its call's (the importer pairs a span with a pending call by id first, then by name). */
function toolName(part: ToolResultPart, callNames: ReadonlyMap<string, string>): string {
  return part.name ?? callNames.get(part.callId) ?? "tool";
}

const USAGE_KEYS: [keyof Usage, string][] = [
  ["inputTokens", "gen_ai.usage.input_tokens"],
  ["outputTokens", "gen_ai.usage.output_tokens"],
  ["cachedInputTokens", "gen_ai.usage.cache_read.input_tokens"],
  ["cacheWriteTokens", "gen_ai.usage.cache_creation.input_tokens"],
];

function usageAttributes(usage: Usage | undefined): OtlpAttribute[] {
  return USAGE_KEYS.flatMap(([field, key]) => (usage?.[field] !== undefined ? [{ key, value: { intValue: String(usage[field]) } }] : []));
}

function str(key: string, value: string): OtlpAttribute {
  return { key, value: { stringValue: value } };
}

/** What the importer compares to detect a repeated history: its first chat input of the list (undefined when the list yields none). */
function firstChatKey(messages: GenAiMessage[]): string | undefined {
  const first = messages.flatMap((m) => toChatMessages(m, ""))[0];
  return first ? JSON.stringify(first.raw) : undefined;
}

/**
 * Start times (ms) per message, strictly increasing: the message's timestamp when it is later than
 * the previous span, else the previous + 1 ms. `undefined` asks for the next tick (the tail span).
 */
function spanClock(session: Session): (message: Message | undefined) => number {
  const firstStamp = session.messages.map((m) => Date.parse(m.timestamp ?? "")).find((t) => !Number.isNaN(t));
  let previous = (Date.parse(session.startedAt ?? "") || firstStamp || 0) - 1;
  return (message) => {
    const stamp = Date.parse(message?.timestamp ?? "");
    previous = Number.isNaN(stamp) || stamp <= previous ? previous + 1 : Math.floor(stamp);
    return previous;
  };
}

function nanos(ms: number): string {
  return (BigInt(Math.floor(ms)) * 1_000_000n).toString();
}
