import type { Message, Part } from "./model";

/**
 * Tracefold messages as GenAI semantic-convention messages (the JSON inside
 * `gen_ai.input.messages` / `gen_ai.output.messages`: `{role, parts}` with `text`, `reasoning`,
 * `tool_call` and `tool_call_response` parts), for export-otlp-json.ts.
 *
 * The convention keeps tool responses in `role: "tool"` messages, so a Tracefold message that mixes
 * tool results with other parts (Claude Code's user record with results and text) is written as
 * consecutive messages in part order: results under `tool`, the rest under the message's own role
 * (`user` for a `tool` message's text). Tool-call arguments stay the text the trace recorded (the
 * convention allows any value; parsing and re-serialising would change the bytes).
 */
export interface GenAiMessage {
  role: "system" | "user" | "assistant" | "tool";
  parts: GenAiPart[];
  /** Output messages only: required by the convention's schema; inferred (`tool_call` when the message calls a tool, else `stop`). */
  finish_reason?: string;
}

export type GenAiPart =
  | { type: "text" | "reasoning"; content: string }
  | { type: "tool_call"; id: string; name: string; arguments: string }
  | { type: "tool_call_response"; id: string; response: string }
  | { type: "image"; modality: "image"; mime_type?: string; bytes?: number }
  | { type: string; content?: string };

/** One Tracefold message as the convention's input messages (one or more, see above). */
export function toGenAiMessages(message: Message): GenAiMessage[] {
  const out: GenAiMessage[] = [];
  const ownRole = message.role === "tool" ? "user" : message.role;
  for (const part of message.parts) {
    const role = part.type === "tool_result" ? "tool" : ownRole;
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts.push(toGenAiPart(part));
    else out.push({ role, parts: [toGenAiPart(part)] });
  }
  // A message without parts still takes its place in the conversation.
  return out.length ? out : [{ role: ownRole, parts: [] }];
}

/** An assistant message as output messages, each with its (inferred) finish reason. */
export function toGenAiOutputMessages(message: Message): GenAiMessage[] {
  return toGenAiMessages(message).map((m) =>
    m.role === "assistant" ? { ...m, finish_reason: m.parts.some((p) => p.type === "tool_call") ? "tool_call" : "stop" } : m,
  );
}

function toGenAiPart(part: Part): GenAiPart {
  switch (part.type) {
    case "text":
    case "reasoning":
      return { type: part.type, content: part.text };
    case "tool_call":
      return { type: "tool_call", id: part.id, name: part.name, arguments: part.arguments };
    case "tool_result":
      return { type: "tool_call_response", id: part.callId, response: part.content };
    case "image":
      return {
        type: "image",
        modality: "image",
        ...(part.mediaType ? { mime_type: part.mediaType } : {}),
        ...(part.bytes !== undefined ? { bytes: part.bytes } : {}),
      };
    case "other":
      return { type: part.kind, ...(part.text !== undefined ? { content: part.text } : {}) };
  }
}
