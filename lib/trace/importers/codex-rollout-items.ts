import type { IssueList } from "../importer";
import { asText, isRecord, num, str } from "../json-lines";
import type { Part, Role, Usage } from "../model";
import { base64Bytes } from "./claude-code";

/**
 * Pure helpers of the Codex rollout importer (codex-rollout.ts): response-item content, reasoning,
 * tool outputs, usage, titles and ids, each reading one payload value.
 */

/** Codex message roles: `developer` (and `system`) instructions are the system prompt. */
export function mapRole(role: string | undefined): Role | undefined {
  if (role === "developer" || role === "system") return "system";
  if (role === "user" || role === "assistant") return role;
  return undefined;
}

/** `content[]` items: input/output text as text, images as placeholders, anything else kept typed. */
export function messageParts(content: unknown, line: number, issues: IssueList): Part[] {
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content)) {
    if (content != null) issues.error(line, `message content is ${describe(content)}`, "payload.content", "an array of {type: input_text | output_text, text}");
    return [];
  }
  return content.map((item, i): Part => {
    if (!isRecord(item)) {
      issues.error(line, `content item is ${describe(item)}`, `payload.content[${i}]`, "{type, text}");
      return { type: "other", kind: "invalid", text: asText(item) };
    }
    const text = str(item.text);
    if ((item.type === "input_text" || item.type === "output_text") && text !== undefined) return { type: "text", text };
    if (item.type === "input_image") return { type: "image", ...dataUrlInfo(str(item.image_url)) };
    if (item.type === "refusal" && str(item.refusal)) return { type: "text", text: str(item.refusal)! };
    return { type: "other", kind: str(item.type) ?? "unknown", ...(text ? { text } : {}) };
  });
}

/** Readable reasoning: the summaries Codex shows, or raw reasoning text when it was recorded. */
export function reasoningText(payload: Record<string, unknown>): string {
  const texts = (items: unknown) =>
    Array.isArray(items) ? items.map((s) => (isRecord(s) ? str(s.text) : undefined)).filter((t): t is string => Boolean(t)) : [];
  const summary = texts(payload.summary);
  return (summary.length ? summary : texts(payload.content)).join("\n\n");
}

/**
 * Tool output: a plain string in current Codex; `{content, success}` in versions that kept the
 * success flag (then `success: false` is an error); an array of content items for rich outputs.
 */
export function outputOf(output: unknown): { content: string; isError?: boolean } {
  if (typeof output === "string") return { content: output };
  if (Array.isArray(output))
    return { content: output.map((o) => (isRecord(o) ? (str(o.text) ?? (o.type === "input_image" ? "[image]" : asText(o))) : asText(o))).join("\n") };
  if (isRecord(output) && "content" in output) {
    const success = output.success;
    return { content: asText(output.content), ...(typeof success === "boolean" ? { isError: !success } : {}) };
  }
  return { content: asText(output) };
}

/** `{input_tokens, cached_input_tokens, output_tokens}` of a `token_count` event as usage. */
export function usageOf(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = {};
  const input = num(raw.input_tokens);
  const cached = num(raw.cached_input_tokens);
  const output = num(raw.output_tokens);
  if (input !== undefined) usage.inputTokens = input;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (output !== undefined) usage.outputTokens = output;
  return Object.keys(usage).length ? usage : undefined;
}

/** Media type and decoded size of a `data:` URL image; nothing for remote URLs. */
export function dataUrlInfo(url: string | undefined): { mediaType?: string; bytes?: number } {
  const match = url ? /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(url) : null;
  if (!match) return {};
  return { ...(match[1] ? { mediaType: match[1] } : {}), ...(match[2] ? { bytes: base64Bytes(match[3] ?? "") } : {}) };
}

/**
 * The user's own prompt: Codex injects `<environment_context>`, `<user_instructions>` and AGENTS.md
 * as user messages too, and IDE clients wrap the request in context sections ending with
 * `## My request for Codex:`, whose text is the request itself.
 */
export function titleFrom(parts: Part[]): string | undefined {
  for (const part of parts) {
    if (part.type !== "text") continue;
    const text = requestOf(part.text).trim();
    if (!text || text.startsWith("<") || text.startsWith("# AGENTS.md")) continue;
    const line = text.split("\n")[0] ?? "";
    return line.length > 80 ? `${line.slice(0, 79)}…` : line;
  }
  return undefined;
}

const REQUEST_MARKER = "## My request for Codex:";

function requestOf(text: string): string {
  const at = text.lastIndexOf(REQUEST_MARKER);
  return at === -1 ? text : text.slice(at + REQUEST_MARKER.length);
}

/** The text of a message's text parts, for comparing a `user_message` event with its response item. */
export function textOf(parts: Part[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
}

/** The uuid at the end of `rollout-<timestamp>-<uuid>.jsonl`, else the file's stem. */
export function idFromName(file: string): string {
  const base = file.replace(/\\/g, "/").split("/").pop() ?? file;
  const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl?$/i.exec(base)?.[1];
  return uuid ?? (base.replace(/\.jsonl?$/i, "") || "session");
}

/** What a value is, for an error message ("an array", "null", "a string"…). */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
