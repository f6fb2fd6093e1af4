import type { IssueList } from "../importer";
import { asText, isRecord, str } from "../json-lines";
import type { Part } from "../model";

/**
 * Parts of `message.content` (Anthropic content blocks, as Claude Code records carry them), or
 * undefined (with an issue) when it is neither string nor array.
 */
export function contentParts(content: unknown, line: number, issues: IssueList): Part[] | undefined {
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content)) {
    issues.error(line, `message content is ${describe(content)}`, "message.content", "a string or an array of content blocks");
    return undefined;
  }
  const parts: Part[] = [];
  content.forEach((block, i) => {
    const part = blockPart(block, `message.content[${i}]`, line, issues);
    if (part) parts.push(part);
  });
  return parts;
}

/** One Anthropic content block; required fields missing → located error and the block is dropped. */
function blockPart(block: unknown, field: string, line: number, issues: IssueList): Part | undefined {
  if (!isRecord(block)) {
    issues.error(line, `content block is ${describe(block)}`, field, "{type, …}");
    return undefined;
  }
  const need = (key: string, expected: string): string | undefined => {
    const value = str(block[key]);
    if (value === undefined) issues.error(line, `${String(block.type)} block without ${key}`, `${field}.${key}`, expected);
    return value;
  };
  switch (block.type) {
    case "text": {
      const text = need("text", "a string");
      return text === undefined ? undefined : { type: "text", text };
    }
    case "thinking": {
      const text = need("thinking", "a string");
      return text === undefined ? undefined : { type: "reasoning", text };
    }
    case "tool_use": {
      const id = need("id", "the call id (toolu_…)");
      const name = need("name", "the tool name");
      return id === undefined || name === undefined ? undefined : { type: "tool_call", id, name, arguments: JSON.stringify(block.input ?? {}) };
    }
    case "tool_result": {
      const callId = need("tool_use_id", "the id of the tool_use block it answers");
      if (callId === undefined) return undefined;
      return {
        type: "tool_result",
        callId,
        content: toolResultText(block.content),
        ...(typeof block.is_error === "boolean" ? { isError: block.is_error } : {}),
      };
    }
    case "image":
      return { type: "image", ...imageInfo(block.source) };
    default:
      return { type: "other", kind: str(block.type) ?? "unknown", ...(str(block.text) ? { text: str(block.text) } : {}) };
  }
}

/** Tool output as plain text: string content as is, block arrays joined (images as placeholders). */
function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : asText(content);
  return content
    .map((block) => {
      if (!isRecord(block)) return asText(block);
      if (block.type === "text") return str(block.text) ?? "";
      if (block.type === "image") {
        const { mediaType, bytes } = imageInfo(block.source);
        return `[image${mediaType ? ` ${mediaType}` : ""}${bytes !== undefined ? `, ${bytes} bytes` : ""}]`;
      }
      return asText(block);
    })
    .join("\n");
}

/** Media type and decoded size of a base64 image source; the payload itself is not kept. */
function imageInfo(source: unknown): { mediaType?: string; bytes?: number } {
  if (!isRecord(source)) return {};
  const mediaType = str(source.media_type);
  const data = source.type === "base64" ? str(source.data) : undefined;
  return { ...(mediaType ? { mediaType } : {}), ...(data !== undefined ? { bytes: base64Bytes(data) } : {}) };
}

/** Bytes a base64 string decodes to (without decoding it). */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** What a value is, for an error message ("an array", "null", "a string"…). */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
