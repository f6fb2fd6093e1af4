import { z } from "zod";
import { asText } from "../json-lines";
import type { Part, Usage } from "../model";
import type { SessionBuilder } from "../session-builder";
import { GeminiPartListSchema, contentPart, partList, plainText, responseContent } from "./gemini-parts";

/**
 * One message record of a Gemini CLI chat recording (`chatRecordingTypes.ts` `MessageRecord`):
 * `{id, timestamp, type, content, displayContent?}` plus, for `type: "gemini"`, `toolCalls[{id,
 * name, args, result, status, timestamp, …display fields}]`, `thoughts[{subject, description}]`,
 * `tokens{input, output, cached, thoughts, tool, total}` and `model`.
 *
 * Mapping, in the order the model saw it:
 * - `user` → a user message of `content` (what was sent; `displayContent` is what was typed and only
 *   titles the session);
 * - `gemini` → one assistant message: thoughts as reasoning (`subject: description`), the text, one
 *   tool call per `toolCalls` entry; then, when any call has a `result`, one tool message with a
 *   result per call (Gemini CLI sends all of a turn's responses back in one user turn). Errors and
 *   cancellations (`status` other than success, or `response.error`) are `isError`;
 * - `info`, `error`, `warning` are the CLI's notices to the user, never sent to the model: skipped.
 * Usage: `input` is the prompt (cached included, as Gemini counts it), `cached` the cached share;
 * `output` adds `thoughts`, which Gemini bills as output but reports apart.
 */
const ToolCallSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  args: z.unknown().optional(),
  result: GeminiPartListSchema.nullish(),
  status: z.string().nullish(),
  timestamp: z.string().nullish(),
});
const count = z.number().nonnegative();
/** One message record; unknown fields (display hints, agent ids) are allowed and ignored. */
export const GeminiRecordSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  timestamp: z.string().nullish(),
  content: GeminiPartListSchema.nullish(),
  displayContent: GeminiPartListSchema.nullish(),
  toolCalls: z.array(ToolCallSchema).nullish(),
  thoughts: z.array(z.looseObject({ subject: z.string().nullish(), description: z.string().nullish() })).nullish(),
  tokens: z.looseObject({ input: count, output: count, cached: count.nullish(), thoughts: count.nullish() }).nullish(),
  model: z.string().nullish(),
});
export type GeminiRecord = z.infer<typeof GeminiRecordSchema>;

/** Record types that are the CLI talking to the user, not part of the conversation. */
export const NOTICE_TYPES = new Set(["info", "error", "warning"]);

/** Adds the messages of one validated record; returns false for a type it does not know. */
export function addGeminiRecord(builder: SessionBuilder, record: GeminiRecord, source: { file: string; line: number }): boolean {
  const timestamp = record.timestamp ? { timestamp: record.timestamp } : {};
  if (record.type === "user") {
    builder.add({ role: "user", parts: contentParts(record), source, ...timestamp });
    return true;
  }
  if (record.type !== "gemini") return NOTICE_TYPES.has(record.type);
  const parts: Part[] = [];
  for (const thought of record.thoughts ?? []) {
    const text = [thought.subject, thought.description].filter(Boolean).join(": ");
    if (text) parts.push({ type: "reasoning", text });
  }
  parts.push(...contentParts(record));
  const calls = record.toolCalls ?? [];
  for (const call of calls) parts.push({ type: "tool_call", id: call.id, name: call.name, arguments: asText(call.args ?? {}) });
  const usage = usageOf(record.tokens);
  builder.add({ role: "assistant", parts, source, ...timestamp, ...(record.model ? { model: record.model } : {}), ...(usage ? { usage } : {}) });
  const answered = calls.filter((c) => c.result !== undefined && c.result !== null);
  if (answered.length === 0) return true;
  const results: Part[] = answered.map((call) => {
    const { content, isError } = responseContent(partList(call.result));
    return {
      type: "tool_result",
      callId: call.id,
      name: call.name,
      content,
      ...(isError || (call.status && call.status !== "success") ? { isError: true } : {}),
    };
  });
  const last = answered
    .map((c) => c.timestamp)
    .filter((t): t is string => Boolean(t))
    .at(-1);
  builder.add({ role: "tool", parts: results, source, ...(last ? { timestamp: last } : timestamp) });
  return true;
}

function contentParts(record: GeminiRecord): Part[] {
  return partList(record.content).flatMap((p) => {
    const part = contentPart(p);
    return part ? [part] : [];
  });
}

/** What the user typed (`displayContent`), else what was sent: the session title's source. */
export function typedText(record: GeminiRecord): string {
  return (plainText(partList(record.displayContent)) || plainText(partList(record.content))).trim();
}

function usageOf(tokens: GeminiRecord["tokens"]): Usage | undefined {
  if (!tokens) return undefined;
  return {
    inputTokens: tokens.input,
    outputTokens: tokens.output + (tokens.thoughts ?? 0),
    ...(tokens.cached !== undefined && tokens.cached !== null ? { cachedInputTokens: tokens.cached } : {}),
  };
}
