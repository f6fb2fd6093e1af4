import { asText, isRecord, str } from "../json-lines";
import { tryJson } from "./otel-genai-messages";

/**
 * The message shapes Langfuse stores in an observation's `input` / `output` (JSON text), rewritten
 * as Chat Completions messages for the shared mapper (openai-messages.ts). Langfuse keeps whatever
 * the integration sent, so one export mixes:
 * - ChatML `{role, content}`, LangChain's assistant `additional_kwargs.tool_calls`;
 * - Anthropic content blocks (`text`, `tool_use`, `tool_result`, `thinking`);
 * - OpenAI Responses items (`function_call`, `function_call_output`, `message` with `output_text`)
 *   and a whole Response object (`{object: "response", output: [...]}`);
 * - Koog's assistant messages whose `content` is the JSON text of its tool calls.
 * Anything without a chat role (`{"content": "role"}` placeholders) is dropped, and so are the
 * `role: "tool"` entries LangChain's callback lists with a function schema as content: they declare
 * the tools available, they are not results.
 */
export function chatMessagesOf(value: unknown, defaultRole: "user" | "assistant"): Record<string, unknown>[] {
  const parsed = typeof value === "string" ? (tryJson(value) ?? value) : value;
  if (typeof parsed === "string") return parsed ? [{ role: defaultRole, content: parsed }] : [];
  if (Array.isArray(parsed)) return parsed.flatMap((item) => chatMessagesOfItem(item));
  if (!isRecord(parsed)) return [];
  if (Array.isArray(parsed.output) && parsed.object === "response") return parsed.output.flatMap((item) => chatMessagesOfItem(item));
  if (Array.isArray(parsed.messages)) return parsed.messages.flatMap((item) => chatMessagesOfItem(item));
  return chatMessagesOfItem(parsed);
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

function chatMessagesOfItem(item: unknown): Record<string, unknown>[] {
  if (!isRecord(item)) return [];
  if (item.type === "function_call") return [{ role: "assistant", content: null, tool_calls: [call(item.call_id ?? item.id, item.name, item.arguments)] }];
  if (item.type === "function_call_output") return [{ role: "tool", tool_call_id: item.call_id, content: asText(item.output) }];
  const role = str(item.role);
  if (!role || !ROLES.has(role) || isToolDefinition(role, item.content)) return [];
  const kwargs = isRecord(item.additional_kwargs) ? item.additional_kwargs : {};
  const toolCalls = Array.isArray(item.tool_calls) ? item.tool_calls : Array.isArray(kwargs.tool_calls) ? kwargs.tool_calls : koogCalls(role, item.content);
  if (Array.isArray(item.content)) return withBlocks(role, item.content, toolCalls, item);
  return [
    {
      role,
      content: toolCalls.length && koogCalls(role, item.content).length ? null : (item.content ?? null),
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      ...(str(item.tool_call_id) ? { tool_call_id: item.tool_call_id } : {}),
    },
  ];
}

/** Anthropic and Responses content blocks: text kept, `tool_use` as calls, each `tool_result` its own tool message. */
function withBlocks(role: string, blocks: unknown[], toolCalls: unknown[], item: Record<string, unknown>): Record<string, unknown>[] {
  const content: Record<string, unknown>[] = [];
  const calls = [...toolCalls];
  const results: Record<string, unknown>[] = [];
  const reasoning: string[] = [];
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    if (block.type === "tool_use") calls.push(call(block.id, block.name, block.input));
    else if (block.type === "tool_result") results.push({ role: "tool", tool_call_id: block.tool_use_id, content: blockText(block.content) });
    else if (block.type === "thinking") reasoning.push(asText(block.thinking));
    else if (typeof block.text === "string") content.push({ type: "text", text: block.text });
    else content.push(block);
  }
  const own = content.length || calls.length || reasoning.length || !results.length;
  const message = {
    role,
    content,
    ...(calls.length ? { tool_calls: calls } : {}),
    ...(reasoning.length ? { reasoning_content: reasoning.join("\n") } : {}),
    ...(str(item.tool_call_id) ? { tool_call_id: item.tool_call_id } : {}),
  };
  return [...(own ? [message] : []), ...results];
}

/** Text of a tool's output: Anthropic/MCP `{content: [{type: "text", text}]}`, LangChain's ToolMessage `{content}`, or the text itself. */
export function toolOutputText(value: unknown): string {
  const parsed = typeof value === "string" ? (tryJson(value) ?? value) : value;
  if (isRecord(parsed) && "content" in parsed) return blockText(parsed.content);
  return asText(parsed);
}

function blockText(content: unknown): string {
  if (!Array.isArray(content)) return asText(content);
  return content.map((b) => (isRecord(b) && typeof b.text === "string" ? b.text : asText(b))).join("\n");
}

function call(id: unknown, name: unknown, args: unknown): Record<string, unknown> {
  return { ...(str(id) ? { id } : {}), type: "function", function: { name, arguments: asText(args ?? {}) } };
}

/** Koog writes an assistant's tool calls as the JSON text of `[{function: {name, arguments}, id}]` in `content`. */
function koogCalls(role: string, content: unknown): unknown[] {
  if (typeof content !== "string" || !content.startsWith("[{")) return [];
  const parsed = tryJson(content);
  const isCalls = Array.isArray(parsed) && parsed.length > 0 && parsed.every((c) => isRecord(c) && isRecord(c.function) && str(c.function.name));
  return isCalls && role === "assistant" ? parsed : [];
}

function isToolDefinition(role: string, content: unknown): boolean {
  return role === "tool" && isRecord(content) && content.type === "function" && isRecord(content.function);
}
