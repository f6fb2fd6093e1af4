import { isRecord, str } from "../json-lines";
import type { ChatInput, Span } from "./otel-genai-messages";

/**
 * The flat, indexed message attributes two instrumentation families write instead of JSON lists:
 * - OpenLLMetry (Traceloop): `gen_ai.prompt.N.role|content|tool_call_id`,
 *   `gen_ai.prompt.N.tool_calls.M.id|name|arguments`, and `gen_ai.completion.N.*` likewise;
 * - OpenInference (Arize Phoenix): `llm.input_messages.N.message.role|content|tool_call_id`,
 *   `llm.input_messages.N.message.tool_calls.M.tool_call.id|function.name|function.arguments`,
 *   and `llm.output_messages.N.message.*` likewise.
 * Each becomes an OpenAI Chat Completions message (ChatInput), in index order, so the rest of
 * the OTel importer treats them exactly like `gen_ai.input.messages`.
 */
interface IndexedConvention {
  /** Attribute prefix before the message index, e.g. `gen_ai.prompt.`. */
  prefix: string;
  /** Between the index and the message fields: `` or `message.`. */
  message: string;
  /** Between a tool call's index and its fields: `` or `tool_call.`. */
  toolCall: string;
  /** Field names of a tool call. */
  callName: string;
  callArguments: string;
}

const OPENLLMETRY = { message: "", toolCall: "", callName: "name", callArguments: "arguments" };
const OPENINFERENCE = { message: "message.", toolCall: "tool_call.", callName: "function.name", callArguments: "function.arguments" };

/** Input conventions, most specific first. */
export const INDEXED_INPUTS: IndexedConvention[] = [
  { prefix: "gen_ai.prompt.", ...OPENLLMETRY },
  { prefix: "llm.input_messages.", ...OPENINFERENCE },
];
/** Output conventions. */
export const INDEXED_OUTPUTS: IndexedConvention[] = [
  { prefix: "gen_ai.completion.", ...OPENLLMETRY },
  { prefix: "llm.output_messages.", ...OPENINFERENCE },
];

/** Whether any attribute of the span is an indexed message attribute (OpenLLMetry or OpenInference). */
export function hasIndexedMessages(attributes: Record<string, unknown>): boolean {
  return Object.keys(attributes).some((key) => INDEXED_PATTERN.test(key));
}
const INDEXED_PATTERN = /^(gen_ai\.(prompt|completion)|llm\.(input|output)_messages)\.\d+\./;

/** The messages of the first convention present on the span, in index order; [] when none is. */
export function readIndexedMessages(span: Span, conventions: IndexedConvention[], defaultRole: string): ChatInput[] {
  for (const convention of conventions) {
    const messages = readConvention(span, convention, defaultRole);
    if (messages.length) return messages;
  }
  return [];
}

function readConvention(span: Span, c: IndexedConvention, defaultRole: string): ChatInput[] {
  const byIndex = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(span.attributes)) {
    if (!key.startsWith(c.prefix)) continue;
    const match = /^(\d+)\.(.+)$/.exec(key.slice(c.prefix.length));
    if (!match || !match[2]!.startsWith(c.message)) continue;
    const index = Number(match[1]);
    const fields = byIndex.get(index) ?? {};
    fields[match[2]!.slice(c.message.length)] = value;
    byIndex.set(index, fields);
  }
  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, fields]) => ({ raw: toChat(fields, c, defaultRole), field: `${span.field}.attributes.${c.prefix}${index}` }));
}

/** One message's fields (`role`, `content`, `tool_calls.0.name`, …) as a Chat Completions message. */
function toChat(fields: Record<string, unknown>, c: IndexedConvention, defaultRole: string): Record<string, unknown> {
  const role = str(fields.role) ?? defaultRole;
  const raw: Record<string, unknown> = { role, content: fields.content ?? indexedContents(fields) };
  const callId = str(fields.tool_call_id);
  if (callId) raw.tool_call_id = callId;
  const calls = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(fields)) {
    const match = /^tool_calls\.(\d+)\.(.+)$/.exec(key);
    if (!match || !match[2]!.startsWith(c.toolCall)) continue;
    const call = calls.get(Number(match[1])) ?? {};
    call[match[2]!.slice(c.toolCall.length)] = value;
    calls.set(Number(match[1]), call);
  }
  if (calls.size) {
    raw.tool_calls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        ...(str(call.id) ? { id: call.id } : {}),
        type: "function",
        function: { name: call[c.callName], arguments: argumentsText(call[c.callArguments]) },
      }));
  }
  return raw;
}

/**
 * OpenInference's multi-part content, `contents.N.message_content.type|text` (`image.image.url` for
 * images), as a Chat Completions content array; null when the message has none.
 */
function indexedContents(fields: Record<string, unknown>): Record<string, unknown>[] | null {
  const blocks = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(fields)) {
    const match = /^contents\.(\d+)\.message_content\.(.+)$/.exec(key);
    if (!match) continue;
    const block = blocks.get(Number(match[1])) ?? {};
    block[match[2]!] = value;
    blocks.set(Number(match[1]), block);
  }
  if (!blocks.size) return null;
  return [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, b]) => (b.type === "image" ? { type: "image_url" } : { type: "text", text: str(b.text) ?? "" }));
}

function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined ? "{}" : JSON.stringify(isRecord(value) || Array.isArray(value) ? value : { value });
}
