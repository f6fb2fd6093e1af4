import { asText, isRecord, str } from "../json-lines";
import type { ChatInput, Span } from "./otel-genai-messages";
import { toChatMessages, tryJson } from "./otel-genai-messages";

/**
 * OpenInference's generic `input.value` / `output.value` (JSON text of what the instrumented
 * function received and returned), read only where the indexed `llm.*_messages` attributes fall
 * short, for otel-genai.ts:
 * - an LLM span without `llm.input_messages` (smolagents) whose `input.value` holds the message list
 *   (`{messages: […]}` or smolagents' `{args: [[…]]}`): only used to open a conversation, because
 *   frameworks serialise their own memory there (smolagents renders earlier tool calls as text with
 *   roles `tool-call` / `tool-response`), so later inputs would duplicate what spans already said;
 * - output messages whose tool calls were dropped (LangChain writes only the role) or lack their
 *   arguments (smolagents): filled from `output.value` — an OpenAI message with `tool_calls`, or a
 *   LangChain `generations[0][0].message` whose `kwargs.tool_calls` are `{id, name, args}`.
 */
export function inputValueMessages(span: Span): ChatInput[] {
  const value = typeof span.attributes["input.value"] === "string" ? tryJson(span.attributes["input.value"]) : undefined;
  if (!isRecord(value)) return [];
  const list = Array.isArray(value.messages) ? value.messages : Array.isArray(value.args) && Array.isArray(value.args[0]) ? value.args[0] : [];
  const field = `${span.field}.attributes.input.value`;
  return list
    .filter((m) => isRecord(m) && ["system", "developer", "user", "assistant", "tool"].includes(String(m.role)))
    .flatMap((m, i) => toChatMessages(m, `${field}[${i}]`));
}

export function withOutputValueCalls(outputs: ChatInput[], span: Span): ChatInput[] {
  const last = outputs[outputs.length - 1];
  if (!last || last.raw.role !== "assistant") return outputs;
  const recovered = outputValueCalls(span.attributes["output.value"]);
  if (!recovered.length) return outputs;
  const own = Array.isArray(last.raw.tool_calls) ? (last.raw.tool_calls as Record<string, unknown>[]) : [];
  const calls = own.length
    ? own.map((call) => {
        const match = recovered.find((r) => r.id === call.id);
        const fn = isRecord(call.function) ? call.function : {};
        return match && (fn.arguments === undefined || fn.arguments === "{}") ? { ...call, function: { ...fn, arguments: match.function.arguments } } : call;
      })
    : recovered;
  return [...outputs.slice(0, -1), { ...last, raw: { ...last.raw, tool_calls: calls } }];
}

interface RecoveredCall {
  id?: string;
  type: "function";
  function: { name: string; arguments: string };
}

function outputValueCalls(text: unknown): RecoveredCall[] {
  const value = typeof text === "string" ? tryJson(text) : undefined;
  if (!isRecord(value)) return [];
  if (Array.isArray(value.tool_calls)) return value.tool_calls.flatMap((c) => openAiCall(c));
  const generation = Array.isArray(value.generations) && Array.isArray(value.generations[0]) ? value.generations[0][0] : undefined;
  const kwargs = isRecord(generation) && isRecord(generation.message) && isRecord(generation.message.kwargs) ? generation.message.kwargs : undefined;
  if (!kwargs || !Array.isArray(kwargs.tool_calls)) return [];
  return kwargs.tool_calls.flatMap((c) =>
    isRecord(c) && str(c.name)
      ? [{ ...(str(c.id) ? { id: str(c.id) } : {}), type: "function" as const, function: { name: str(c.name)!, arguments: asText(c.args ?? {}) } }]
      : [],
  );
}

function openAiCall(call: unknown): RecoveredCall[] {
  const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
  if (!fn || !str(fn.name)) return [];
  return [
    {
      ...(str((call as Record<string, unknown>).id) ? { id: str((call as Record<string, unknown>).id) } : {}),
      type: "function",
      function: { name: str(fn.name)!, arguments: asText(fn.arguments ?? {}) },
    },
  ];
}
