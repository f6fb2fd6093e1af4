import type { IssueList } from "../importer";
import { asText, isRecord, num, str } from "../json-lines";
import type { Message, Part, Role, Usage } from "../model";
import type { SessionBuilder } from "../session-builder";

/**
 * Maps one OpenAI Chat Completions message onto the canonical model. Shared by every format that
 * embeds Chat Completions messages (tau-bench, mini-swe-agent, SWE-agent v1, OTel input messages,
 * plain `messages` files), so they all agree on content arrays, `tool_calls`, legacy
 * `function_call` and `role: "tool"` results.
 *
 * Returns the message added, or undefined (with an issue) when `raw` is not a message.
 */
export function addOpenAiChatMessage(
  builder: SessionBuilder,
  raw: unknown,
  where: { file: string; line: number; field: string },
  issues: IssueList,
  extra: Partial<Pick<Message, "timestamp" | "model" | "usage" | "meta">> = {},
): Message | undefined {
  if (!isRecord(raw)) {
    issues.error(where.line, "message is not an object", where.field, "{role, content}");
    return undefined;
  }
  const role = mapRole(str(raw.role));
  if (!role) {
    issues.error(where.line, `unknown role ${JSON.stringify(raw.role)}`, `${where.field}.role`, "system | developer | user | assistant | tool | function");
    return undefined;
  }
  const parts: Part[] = [];
  const reasoning = str(raw.reasoning_content) ?? str(raw.reasoning);
  if (reasoning) parts.push({ type: "reasoning", text: reasoning });
  if (role === "tool") {
    const callId = str(raw.tool_call_id) ?? (Array.isArray(raw.tool_call_ids) ? str(raw.tool_call_ids[0]) : undefined);
    parts.push({
      type: "tool_result",
      callId: callId ?? builder.lastCall()?.id ?? builder.nextSyntheticCallId(),
      content: contentText(raw.content),
      ...(str(raw.name) ? { name: str(raw.name) } : {}),
    });
  } else {
    parts.push(...contentParts(raw.content));
  }
  if (Array.isArray(raw.tool_calls)) {
    raw.tool_calls.forEach((call, i) => {
      const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
      const name = fn ? str(fn.name) : undefined;
      if (!isRecord(call) || !fn || !name) {
        issues.error(where.line, "tool call without function.name", `${where.field}.tool_calls[${i}]`, "{id, function: {name, arguments}}");
        return;
      }
      parts.push({ type: "tool_call", id: str(call.id) ?? builder.nextSyntheticCallId(), name, arguments: asText(fn.arguments) });
    });
  }
  if (isRecord(raw.function_call) && str(raw.function_call.name)) {
    parts.push({
      type: "tool_call",
      id: builder.nextSyntheticCallId(),
      name: str(raw.function_call.name)!,
      arguments: asText(raw.function_call.arguments),
    });
  }
  return builder.add({ role, parts, source: { file: where.file, line: where.line }, ...extra });
}

function mapRole(role: string | undefined): Role | undefined {
  switch (role) {
    case "system":
    case "developer":
      return "system";
    case "user":
      return "user";
    case "assistant":
      return "assistant";
    case "tool":
    case "function":
      return "tool";
    default:
      return undefined;
  }
}

/** Text of a Chat Completions `content` (string, null, or array of content parts). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : asText(content);
  return content.map((p) => (isRecord(p) ? (str(p.text) ?? (p.type === "image_url" ? "[image]" : asText(p))) : asText(p))).join("\n");
}

/** Content parts of a non-tool message: text blocks, images as typed placeholders. */
export function contentParts(content: unknown): Part[] {
  if (content == null || content === "") return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [{ type: "text", text: asText(content) }];
  const parts: Part[] = [];
  for (const block of content) {
    if (!isRecord(block)) {
      parts.push({ type: "text", text: asText(block) });
    } else if (block.type === "image_url" || block.type === "input_image" || block.type === "image") {
      parts.push({ type: "image" });
    } else if (typeof block.text === "string") {
      parts.push({ type: "text", text: block.text });
    } else {
      parts.push({ type: "other", kind: str(block.type) ?? "unknown", text: asText(block) });
    }
  }
  return parts;
}

/**
 * Usage of an OpenAI-style (or LiteLLM-normalised) response: `prompt_tokens` and
 * `completion_tokens`, cached input from `prompt_tokens_details.cached_tokens`, DeepSeek's
 * `prompt_cache_hit_tokens` or Anthropic-via-LiteLLM `cache_read_input_tokens`, cache writes from
 * `cache_creation_input_tokens`. Undefined when `raw` carries none of them.
 */
export function openAiUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const details = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const usage: Usage = {};
  const input = num(raw.prompt_tokens);
  const output = num(raw.completion_tokens);
  // The same quantity under provider-specific names; LiteLLM often fills several of them.
  const cachedReports = [details.cached_tokens, raw.prompt_cache_hit_tokens, raw.cache_read_input_tokens].map(num).filter((n) => n !== undefined);
  const cached = cachedReports.length > 0 ? Math.max(...cachedReports) : undefined;
  const cacheWrite = num(raw.cache_creation_input_tokens);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (cacheWrite) usage.cacheWriteTokens = cacheWrite;
  return Object.keys(usage).length > 0 ? usage : undefined;
}
