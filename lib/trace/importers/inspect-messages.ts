import type { IssueList } from "../importer";
import { asText, isRecord, str } from "../json-lines";
import type { Message } from "../model";
import type { SessionBuilder } from "../session-builder";
import { addOpenAiChatMessage } from "./openai-messages";

/**
 * Inspect AI chat messages (`ChatMessageSystem|User|Assistant|Tool`) onto the canonical model, by
 * rewriting them as Chat Completions messages for the shared mapper. Inspect differs in three places:
 * - `tool_calls[i]` is `{id, function: "<name>", arguments: {…}}` (the name is a string, the
 *   arguments an object);
 * - `content` may be a list of typed blocks: `text`, `reasoning` (its text in `reasoning`), `image`,
 *   `audio`, `video`; reasoning becomes a reasoning part, media typed placeholders;
 * - a tool message names its tool in `function` and carries `error: {type, message}` on failure.
 */
export function addInspectMessage(
  builder: SessionBuilder,
  raw: unknown,
  where: { file: string; line: number; field: string },
  issues: IssueList,
  evalModel: string | undefined,
): Message | undefined {
  if (!isRecord(raw)) return addOpenAiChatMessage(builder, raw, where, issues);
  const chat: Record<string, unknown> = { role: raw.role, content: null };
  const blocks = Array.isArray(raw.content) ? raw.content : undefined;
  chat.content = blocks ? blocks.filter((b) => !(isRecord(b) && b.type === "reasoning")).map(toChatBlock) : raw.content;
  const reasoning = (blocks ?? []).filter((b) => isRecord(b) && b.type === "reasoning").map((b) => asText((b as Record<string, unknown>).reasoning));
  if (reasoning.length) chat.reasoning_content = reasoning.join("\n");
  if (Array.isArray(raw.tool_calls)) chat.tool_calls = raw.tool_calls.map(toChatCall);
  if (raw.role === "tool") {
    chat.tool_call_id = raw.tool_call_id;
    if (str(raw.function)) chat.name = raw.function;
  }
  const model = raw.role === "assistant" ? (str(raw.model) ?? evalModel) : undefined;
  const added = addOpenAiChatMessage(builder, chat, where, issues, model ? { model } : {});
  if (added && raw.role === "tool" && isRecord(raw.error)) {
    for (const part of added.parts) if (part.type === "tool_result") part.isError = true;
  }
  return added;
}

function toChatBlock(block: unknown): unknown {
  if (!isRecord(block)) return block;
  if (block.type === "text") return { type: "text", text: asText(block.text) };
  if (block.type === "image") return { type: "image_url" };
  return block;
}

function toChatCall(call: unknown): unknown {
  if (!isRecord(call)) return call;
  const name = typeof call.function === "string" ? call.function : isRecord(call.function) ? call.function.name : undefined;
  return { ...(str(call.id) ? { id: call.id } : {}), type: "function", function: { name, arguments: asText(call.arguments ?? {}) } };
}

/**
 * Inspect stores long strings once per sample in `attachments` and writes `attachment://<hash>` in
 * their place; the references are replaced by their text (an unknown hash is left as written).
 */
export function resolveAttachments(messages: unknown[], attachments: Record<string, string>): unknown[] {
  if (!Object.keys(attachments).length) return messages;
  const resolve = (value: unknown): unknown => {
    if (typeof value === "string") {
      const match = /^attachment:\/\/([0-9a-f]+)$/.exec(value);
      return match && match[1]! in attachments ? attachments[match[1]!] : value;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  return messages.map(resolve);
}
