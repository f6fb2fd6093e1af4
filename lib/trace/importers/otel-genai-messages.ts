import type { IssueList } from "../importer";
import { asText, isRecord, str } from "../json-lines";
import { excessNestingAt, excessNestingMessage, MAX_JSON_DEPTH } from "../json-depth";
import { INDEXED_INPUTS, INDEXED_OUTPUTS, readIndexedMessages } from "./otel-indexed-messages";

/**
 * Reading the messages inside OpenTelemetry GenAI spans, for otel-genai.ts: the span model, the
 * `gen_ai.*.messages` attributes (JSON text, parsed with the same depth limit as whole files),
 * any-agent outputs and the older message events, all turned into OpenAI-style chat inputs.
 */

/** Span events that carry a chat message (the older event style). */
export const MESSAGE_EVENTS = new Set(["gen_ai.system.message", "gen_ai.user.message", "gen_ai.assistant.message", "gen_ai.tool.message", "gen_ai.choice"]);

/** A span reduced to what the importer reads, whatever container it came from. */
export interface Span {
  traceKey: string;
  /** Readable trace id when the dump has one that survived JSON number precision. */
  traceId?: string;
  /** The span's own id and its parent's, as text, when the dump has them (nested LLM spans). */
  spanKey?: string;
  parentKey?: string;
  startMs?: number;
  attributes: Record<string, unknown>;
  events: SpanEvent[];
  isError: boolean;
  /** Where the span sits in the file (`spans[3]`), for issues. */
  field: string;
  line: number;
}
export interface SpanEvent {
  name: string;
  timeMs?: number;
  attributes: Record<string, unknown>;
  field: string;
}

/** An OpenAI-style chat message (what `addOpenAiChatMessage` reads) with where it came from. */
export interface ChatInput {
  raw: Record<string, unknown>;
  field: string;
  timeMs?: number;
}

/** Attribute values may be JSON text (SDK dumps) or already structured (OTLP arrays, kvlists). */
export function jsonAttribute(span: Span, key: string, issues: IssueList): unknown {
  const value = span.attributes[key];
  if (typeof value !== "string") return value;
  const deepAt = excessNestingAt(value);
  if (deepAt !== undefined) {
    issues.error(
      span.line,
      `attribute ${key}: ${excessNestingMessage(deepAt)}`,
      `${span.field}.attributes.${key}`,
      `JSON nested at most ${MAX_JSON_DEPTH} levels deep`,
    );
    return undefined;
  }
  try {
    return JSON.parse(value);
  } catch {
    issues.error(span.line, `attribute ${key} is not valid JSON`, `${span.field}.attributes.${key}`, "a JSON array of messages");
    return undefined;
  }
}

/** A JSON-array attribute such as `gen_ai.input.messages`; undefined (with an issue) otherwise. */
export function messageList(span: Span, key: string, issues: IssueList): unknown[] | undefined {
  if (!(key in span.attributes)) return undefined;
  const value = jsonAttribute(span, key, issues);
  if (Array.isArray(value)) return value;
  if (value !== undefined) issues.error(span.line, `${key} is not an array`, `${span.field}.attributes.${key}`, "an array of messages");
  return undefined;
}

export function readInputs(span: Span, issues: IssueList): ChatInput[] | undefined {
  const field = `${span.field}.attributes.gen_ai.input.messages`;
  const list = messageList(span, "gen_ai.input.messages", issues);
  const fromEvents = () => span.events.filter((e) => e.name !== "gen_ai.choice" && MESSAGE_EVENTS.has(e.name)).flatMap(eventToChat);
  const fromIndexed = () => readIndexedMessages(span, INDEXED_INPUTS, "user");
  const messages = list ? list.flatMap((m, i) => toChatMessages(m, `${field}[${i}]`)) : firstNonEmpty(fromEvents, fromIndexed);
  const inputs = [...systemInstructions(span, issues), ...messages];
  return inputs.length ? inputs : undefined;
}

export function systemInstructions(span: Span, issues: IssueList): ChatInput[] {
  if (!("gen_ai.system_instructions" in span.attributes)) return [];
  const value = jsonAttribute(span, "gen_ai.system_instructions", issues);
  const parts = Array.isArray(value) ? value : [value];
  const text = parts.map((p) => (isRecord(p) ? (str(p.content) ?? asText(p)) : asText(p))).join("\n");
  return [{ raw: { role: "system", content: text }, field: `${span.field}.attributes.gen_ai.system_instructions` }];
}

export function readOutputs(span: Span, issues: IssueList): ChatInput[] {
  const field = `${span.field}.attributes.gen_ai.output.messages`;
  const list = messageList(span, "gen_ai.output.messages", issues);
  if (list) return list.flatMap((m, i) => toChatMessages(isRecord(m) ? { role: "assistant", ...m } : m, `${field}[${i}]`));
  if ("gen_ai.output.messages" in span.attributes) return [];
  const choices = span.events.filter((e) => e.name === "gen_ai.choice");
  if (choices.length) return choices.flatMap(eventToChat);
  const indexed = readIndexedMessages(span, INDEXED_OUTPUTS, "assistant");
  if (indexed.length) return indexed;
  if ("gen_ai.output" in span.attributes) return [anyAgentOutput(span.attributes["gen_ai.output"], `${span.field}.attributes.gen_ai.output`)];
  return [];
}

/** The first reader that finds messages (a span written in one convention yields [] from the others). */
function firstNonEmpty(...readers: (() => ChatInput[])[]): ChatInput[] {
  for (const read of readers) {
    const found = read();
    if (found.length) return found;
  }
  return [];
}

/** any-agent's `gen_ai.output`: plain text, or JSON `[{"tool.name", "tool.args"}]` for tool calls. */
export function anyAgentOutput(value: unknown, field: string): ChatInput {
  const parsed = typeof value === "string" ? tryJson(value) : value;
  const calls = Array.isArray(parsed) ? parsed.filter(isRecord) : [];
  if (calls.length && calls.length === (parsed as unknown[]).length && calls.every((c) => str(c["tool.name"]))) {
    const toolCalls = calls.map((c) => ({ type: "function", function: { name: c["tool.name"], arguments: asText(c["tool.args"]) } }));
    return { raw: { role: "assistant", content: null, tool_calls: toolCalls }, field };
  }
  return { raw: { role: "assistant", content: asText(value) }, field };
}

/** Parsed JSON text, or undefined when it is not JSON or nests too deep to handle safely. */
export function tryJson(text: string): unknown {
  if (excessNestingAt(text) !== undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One input/output message to Chat Completions shape. Semantic-convention `parts` messages become
 * one message plus one `role: "tool"` message per `tool_call_response` part; OpenAI-style
 * messages pass through.
 */
export function toChatMessages(message: unknown, field: string): ChatInput[] {
  if (!isRecord(message) || !Array.isArray(message.parts)) return [{ raw: isRecord(message) ? message : { value: message }, field }];
  const content: Record<string, unknown>[] = [];
  const toolCalls: Record<string, unknown>[] = [];
  const responses: ChatInput[] = [];
  const reasoning: string[] = [];
  message.parts.forEach((part, i) => {
    if (!isRecord(part)) return;
    if (part.type === "text") content.push({ type: "text", text: asText(part.content) });
    else if (part.type === "reasoning") reasoning.push(asText(part.content));
    else if (part.type === "tool_call")
      toolCalls.push({ ...(str(part.id) ? { id: part.id } : {}), type: "function", function: { name: part.name, arguments: asText(part.arguments) } });
    else if (part.type === "tool_call_response")
      responses.push({ raw: { role: "tool", tool_call_id: part.id, content: asText(part.response) }, field: `${field}.parts[${i}]` });
    else if (part.modality === "image" || part.type === "image") content.push({ type: "image_url" });
    else content.push({ type: str(part.type) ?? "unknown", value: part });
  });
  if (message.role === "tool") return responses;
  const own = content.length || toolCalls.length || reasoning.length || !responses.length;
  const raw = {
    role: message.role,
    content,
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    ...(reasoning.length ? { reasoning_content: reasoning.join("\n") } : {}),
  };
  return [...(own ? [{ raw, field }] : []), ...responses];
}

/** Old-style message events (`gen_ai.user.message`, `gen_ai.choice`, …) to Chat Completions shape. */
export function eventToChat(event: SpanEvent): ChatInput[] {
  const a = event.attributes;
  const time = event.timeMs === undefined ? {} : { timeMs: event.timeMs };
  if (event.name === "gen_ai.choice") {
    const message = typeof a.message === "string" ? (tryJson(a.message) ?? { content: a.message }) : a.message;
    const raw = isRecord(message) ? { role: "assistant", ...message } : { role: "assistant", content: asText(a.content) };
    return [{ raw: parseToolCalls(raw), field: event.field, ...time }];
  }
  const role = event.name.slice("gen_ai.".length, -".message".length);
  const raw: Record<string, unknown> = { role, content: a.content ?? null };
  if (role === "tool") raw.tool_call_id = a.id ?? a.tool_call_id;
  if (a.tool_calls !== undefined) raw.tool_calls = a.tool_calls;
  return [{ raw: parseToolCalls(raw), field: event.field, ...time }];
}

export function parseToolCalls(raw: Record<string, unknown>): Record<string, unknown> {
  return typeof raw.tool_calls === "string" ? { ...raw, tool_calls: tryJson(raw.tool_calls) ?? [] } : raw;
}
