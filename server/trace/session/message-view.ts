import type { Part, Role, Usage } from "@/lib/trace/model";
import type { MessageView, PartView } from "./types";

/** The columns of a TraceMessage row the viewer reads. */
export interface MessageRow {
  index: number;
  role: string;
  parts: string;
  tokens: number;
  sourceLine: number;
  timestamp: string | null;
  model: string | null;
  usage: string | null;
  meta: string | null;
}

export const MESSAGE_ROW_SELECT = {
  index: true,
  role: true,
  parts: true,
  tokens: true,
  sourceLine: true,
  timestamp: true,
  model: true,
  usage: true,
  meta: true,
} as const;

/** Links between parts and context objects, resolved for a set of messages (see annotate-messages). */
export interface MessageLinks {
  /** `message:part` of a tool_result → its `function:<tool>:n` id. */
  objectAt: ReadonlyMap<string, string>;
  /** Message index → `conversation:user:k` for messages that open a user request. */
  conversationAt: ReadonlyMap<number, string>;
  /** tool_call id → where its result is. */
  resultOf: ReadonlyMap<string, { message: number; objectId: string }>;
  /** tool_call id → message holding the call. */
  callMessageOf: ReadonlyMap<string, number>;
}

export function parseParts(json: string): Part[] {
  try {
    const value: unknown = JSON.parse(json);
    if (Array.isArray(value)) return value as Part[];
  } catch {
    // fall through: shown as one opaque part rather than failing the whole window
  }
  return [{ type: "other", kind: "unreadable", text: json }];
}

/** Maps a row (with its parts already parsed) to the viewer's shape, cutting every text to `previewChars` (Infinity: in full). */
export function toMessageView(row: MessageRow, parsed: Part[], links: MessageLinks, previewChars: number): MessageView {
  const parts = parsed.map((part, p) => toPartView(part, row.index, p, links, previewChars));
  const conversationId = links.conversationAt.get(row.index);
  const usage = parseObject<Usage>(row.usage);
  const meta = parseObject<Record<string, string | number | boolean>>(row.meta);
  return {
    index: row.index,
    role: row.role as Role,
    tokens: row.tokens,
    sourceLine: row.sourceLine,
    ...(row.timestamp ? { timestamp: row.timestamp } : {}),
    ...(row.model ? { model: row.model } : {}),
    ...(usage ? { usage } : {}),
    ...(meta ? { meta } : {}),
    ...(conversationId ? { conversationId } : {}),
    parts,
  };
}

function toPartView(part: Part, message: number, p: number, links: MessageLinks, max: number): PartView {
  switch (part.type) {
    case "text":
    case "reasoning": {
      const { text, ...cap } = capText(part.text, max);
      return { type: part.type, text, ...cap };
    }
    case "tool_call": {
      const { text, ...cap } = capText(part.arguments, max);
      const result = links.resultOf.get(part.id);
      return {
        type: "tool_call",
        id: part.id,
        name: part.name,
        arguments: text,
        ...cap,
        ...(result ? { resultMessage: result.message, resultObjectId: result.objectId } : {}),
      };
    }
    case "tool_result": {
      const { text, ...cap } = capText(part.content, max);
      const objectId = links.objectAt.get(`${message}:${p}`);
      const callMessage = links.callMessageOf.get(part.callId);
      return {
        type: "tool_result",
        callId: part.callId,
        ...(part.name ? { name: part.name } : {}),
        content: text,
        ...cap,
        ...(part.isError ? { isError: true } : {}),
        ...(part.orphan ? { orphan: true } : {}),
        ...(objectId ? { objectId } : {}),
        ...(callMessage !== undefined ? { callMessage } : {}),
      };
    }
    case "image":
      return { type: "image", ...(part.mediaType ? { mediaType: part.mediaType } : {}), ...(part.bytes !== undefined ? { bytes: part.bytes } : {}) };
    case "other": {
      const { text, ...cap } = capText(part.text ?? "", max);
      return { type: "other", kind: part.kind, ...(part.text !== undefined ? { text } : {}), ...cap };
    }
  }
}

/** Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair. */
export function capText(text: string, max: number): { text: string; truncated: boolean; length: number; lines: number } {
  const lines = countLines(text);
  if (text.length <= max) return { text, truncated: false, length: text.length, lines };
  let end = Math.max(0, Math.floor(max));
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), truncated: true, length: text.length, lines };
}

/** Lines as a viewer shows them: a trailing newline does not open another line; "" is 0 lines. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}

function parseObject<T>(json: string | null): T | undefined {
  if (!json) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
