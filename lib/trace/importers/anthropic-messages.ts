import { IssueList, type Importer } from "../importer";
import { asText, hasAgentFormatMarkers, isRecord, num, readJsonRecords, str } from "../json-lines";
import type { Message, ParseResult, Part, Session, ToolResultPart, Usage } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";

/**
 * Anthropic Messages API traffic. Accepted per JSON value (the whole file, or each JSONL line):
 * a request `{model, system?, messages: [...]}`, a response `{type: "message", role: "assistant",
 * content, usage}`, a pair `{request, response}`, or an array of messages; a document array of
 * requests / responses / pairs gives one session each. The response, when present, is appended as
 * the final assistant turn with its model and usage.
 *
 * Blocks: text, thinking (→ reasoning), tool_use (→ tool_call with JSON `input`), tool_result
 * (→ tool_result), image (→ placeholder with media type and decoded size), document and anything
 * else (→ `other`). A user message holding tool_result blocks becomes a `tool` message with those
 * results, followed by a `user` message for any other blocks it carried, so tool results sit in
 * the role every policy expects.
 */
export const anthropicMessagesImporter: Importer = {
  format: "anthropic_messages",
  label: "Anthropic Messages API",
  detect: detectAnthropicMessages,
  parse: parseAnthropicMessages,
};

const ANTHROPIC_ONLY =
  /"type"\s*:\s*"(tool_use|tool_result|thinking|redacted_thinking|server_tool_use)"|"(stop_reason|tool_use_id|anthropic_version|cache_control|cache_creation_input_tokens)"\s*:/;
const OTHER_API = /"type"\s*:\s*"(input_text|output_text|function_call|function_call_output)"|"(tool_calls|tool_call_id|choices|call_id)"\s*:/;
/** A `system`/`tool` role is never an Anthropic message: Anthropic's system prompt is top-level. */
const FOREIGN_ROLE = /"role"\s*:\s*"(system|developer|tool|function)"/;
const ROLE = /"role"\s*:\s*"(user|assistant)"/;

/**
 * Anthropic-only blocks and fields score 0.85; a `system` + `max_tokens` request or a
 * `type: "message"` response 0.7; a Claude model name 0.6; plain roles 0.3. Fields of the OpenAI
 * APIs, or a system/tool role inside `messages`, pull the score down.
 */
export function detectAnthropicMessages(name: string, head: string): number {
  if (hasAgentFormatMarkers(name, head)) return 0.1;
  const start = head.trimStart()[0];
  if (start !== "[" && start !== "{") return 0;
  const anthropic = ANTHROPIC_ONLY.test(head);
  if (OTHER_API.test(head)) return anthropic ? 0.35 : 0.15;
  if (anthropic) return 0.85;
  if (/"max_tokens"\s*:/.test(head) && /"messages"\s*:/.test(head) && /"system"\s*:/.test(head)) return 0.7;
  if (FOREIGN_ROLE.test(head)) return 0.15;
  if (/"type"\s*:\s*"message"/.test(head) && ROLE.test(head)) return 0.7;
  if (/"model"\s*:\s*"claude/.test(head) || (/"request"\s*:/.test(head) && /"response"\s*:/.test(head))) return 0.6;
  return ROLE.test(head) ? 0.3 : 0;
}

async function parseAnthropicMessages(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const sessions: Session[] = [];
  for await (const { value, lineOf } of readJsonRecords(source, issues)) {
    for (const unit of exchangeUnits(value, lineOf, issues)) {
      const builder = new SessionBuilder(`session-${sessions.length + 1}`, "anthropic_messages");
      sessions.push(new ExchangeReader(builder, source.name, lineOf, issues).read(unit));
    }
  }
  return { format: "anthropic_messages", sessions, issues: issues.items };
}

/** One request/response exchange, normalised from the accepted shapes, with its field prefix. */
interface Exchange {
  prefix: string;
  request?: Record<string, unknown>;
  messages?: unknown[];
  response?: Record<string, unknown>;
  responseField?: string;
}

/** Line of the value at a field path (the record's line for JSONL). */
type LineOf = (field: string) => number;

function exchangeUnits(value: unknown, lineOf: LineOf, issues: IssueList): Exchange[] {
  if (Array.isArray(value)) {
    const isMessage = (v: unknown) => isRecord(v) && v.role !== undefined && v.type !== "message";
    if (value.some(isMessage) || value.length === 0) return [{ prefix: "", messages: value }];
    return value.flatMap((v, i) => exchangeOf(v, lineOf, `[${i}].`, issues));
  }
  return exchangeOf(value, lineOf, "", issues);
}

function exchangeOf(value: unknown, lineOf: LineOf, prefix: string, issues: IssueList): Exchange[] {
  const line = lineOf(prefix.slice(0, -1));
  if (!isRecord(value)) {
    issues.error(
      line,
      `expected a JSON object, got ${Array.isArray(value) ? "an array" : typeof value}`,
      prefix.slice(0, -1) || undefined,
      "a request, a response or {request, response}",
    );
    return [];
  }
  if (value.request !== undefined || value.response !== undefined) {
    const request = isRecord(value.request) ? value.request : undefined;
    const response = isRecord(value.response) ? value.response : undefined;
    if (value.request !== undefined && !request) issues.error(line, "request is not an object", `${prefix}request`, "{model, system?, messages}");
    if (value.response !== undefined && !response)
      issues.error(line, "response is not an object", `${prefix}response`, '{type: "message", role: "assistant", content}');
    return [{ prefix: `${prefix}request.`, ...(request ? { request } : {}), ...(response ? { response, responseField: `${prefix}response` } : {}) }];
  }
  const isResponse = value.type === "message" || value.type === "error" || (value.role === "assistant" && value.messages === undefined);
  if (isResponse) return [{ prefix, response: value, responseField: prefix.slice(0, -1) || "" }];
  if (value.messages !== undefined) return [{ prefix, request: value }];
  issues.error(
    line,
    "object is neither a request, a response nor {request, response}",
    prefix.slice(0, -1) || undefined,
    '{messages: [...]}, {type: "message", content} or {request, response}',
  );
  return [];
}

/** Builds one session from an exchange; every problem is reported at the record's line and field. */
class ExchangeReader {
  constructor(
    private readonly builder: SessionBuilder,
    private readonly file: string,
    private readonly lineOf: LineOf,
    private readonly issues: IssueList,
  ) {}

  read(exchange: Exchange): Session {
    const request = exchange.request;
    if (request) {
      this.builder.noteModel(str(request.model));
      this.addSystem(request.system, `${exchange.prefix}system`);
      if (!Array.isArray(request.messages))
        this.issues.error(this.lineOf(`${exchange.prefix}messages`), "messages is not an array", `${exchange.prefix}messages`, "an array of {role, content}");
    }
    const messages = exchange.messages ?? (Array.isArray(request?.messages) ? request.messages : []);
    const base = exchange.messages ? "" : `${exchange.prefix}messages`;
    messages.forEach((raw, i) => this.addMessage(raw, `${base}[${i}]`));
    if (exchange.response) this.addResponse(exchange.response, exchange.responseField ?? "");
    return this.builder.build();
  }

  private addSystem(system: unknown, field: string): void {
    if (system === undefined || system === null) return;
    const text =
      typeof system === "string"
        ? system
        : Array.isArray(system)
          ? system.map((b) => (isRecord(b) ? (str(b.text) ?? asText(b)) : asText(b))).join("\n")
          : undefined;
    if (text === undefined) this.issues.error(this.lineOf(field), `system is ${typeof system}`, field, "a string or an array of text blocks");
    else if (text) this.builder.add({ role: "system", parts: [{ type: "text", text }], source: this.source(field) });
  }

  private addResponse(response: Record<string, unknown>, field: string): void {
    if (response.type === "error") {
      this.issues.error(
        this.lineOf(field),
        `response is an API error: ${asText(isRecord(response.error) ? response.error.message : response.error)}`,
        field || undefined,
      );
      return;
    }
    const model = str(response.model);
    const usage = anthropicUsage(response.usage);
    this.addMessage({ role: "assistant", ...response }, field, { ...(model ? { model } : {}), ...(usage ? { usage } : {}) });
  }

  private addMessage(raw: unknown, field: string, extra: Pick<Message, "model" | "usage"> = {}): void {
    if (!isRecord(raw)) {
      this.issues.error(this.lineOf(field), `message is ${Array.isArray(raw) ? "an array" : typeof raw}, not an object`, field, "{role, content}");
      return;
    }
    if (raw.role !== "user" && raw.role !== "assistant") {
      const problem = raw.role === undefined ? "message has no role" : `unknown role ${JSON.stringify(raw.role)}`;
      this.issues.error(this.lineOf(field), problem, sub(field, "role"), "user | assistant");
      return;
    }
    const parts = this.contentParts(raw.content, sub(field, "content"));
    if (raw.role === "assistant") {
      this.builder.add({ role: "assistant", parts, source: this.source(field), ...extra });
      return;
    }
    const results = parts.filter((p): p is ToolResultPart => p.type === "tool_result");
    const rest = parts.filter((p) => p.type !== "tool_result");
    if (results.length) this.builder.add({ role: "tool", parts: results, source: this.source(field) });
    if (rest.length || !results.length) this.builder.add({ role: "user", parts: rest, source: this.source(field) });
  }

  private contentParts(content: unknown, field: string): Part[] {
    if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
    if (!Array.isArray(content)) {
      if (content === undefined || content === null) return [];
      this.issues.error(this.lineOf(field), `content is ${typeof content}; imported as its JSON text`, field, "a string or an array of content blocks");
      return [{ type: "text", text: asText(content) }];
    }
    return content.flatMap((block, i) => this.blockParts(block, `${field}[${i}]`));
  }

  private blockParts(block: unknown, field: string): Part[] {
    if (!isRecord(block)) {
      this.issues.error(this.lineOf(field), `content block is ${typeof block}, not an object`, field, '{type: "text" | "tool_use" | "tool_result" | …}');
      return [];
    }
    const type = str(block.type) ?? "unknown";
    if (type === "text") return [{ type: "text", text: asText(block.text) }];
    if (type === "thinking") return [{ type: "reasoning", text: asText(block.thinking) }];
    if (type === "image") return [imagePart(block.source)];
    if (type === "tool_use" || type === "server_tool_use" || type === "mcp_tool_use") return this.toolUse(block, field);
    if (type === "tool_result" || type.endsWith("_tool_result")) return [this.toolResult(block, field)];
    if (type === "document") return [{ type: "other", kind: "document", text: str(block.title) ?? documentText(block.source) }];
    return [{ type: "other", kind: type, text: asText(block) }];
  }

  private toolUse(block: Record<string, unknown>, field: string): Part[] {
    const id = str(block.id);
    const name = str(block.name);
    if (!id || !name) {
      this.issues.error(
        this.lineOf(field),
        "tool_use block without id or name; call skipped",
        `${field}.${id ? "name" : "id"}`,
        '{type: "tool_use", id, name, input}',
      );
      return [];
    }
    return [{ type: "tool_call", id, name, arguments: JSON.stringify(block.input ?? {}) }];
  }

  private toolResult(block: Record<string, unknown>, field: string): ToolResultPart {
    let callId = str(block.tool_use_id);
    if (!callId) {
      this.issues.error(
        this.lineOf(field),
        "tool_result block without tool_use_id; paired with the latest call",
        `${field}.tool_use_id`,
        "the id of an earlier tool_use block",
      );
      callId = this.builder.lastCall()?.id ?? this.builder.nextSyntheticCallId();
    }
    return { type: "tool_result", callId, content: resultText(block.content), ...(block.is_error === true ? { isError: true } : {}) };
  }

  private source(field: string) {
    return { file: this.file, line: this.lineOf(field) };
  }
}

/** `a.b` for a nested field, `b` at the top of the record. */
function sub(field: string, key: string): string {
  return field ? `${field}.${key}` : key;
}

/** An image placeholder: the payload is dropped, its media type and decoded size are kept. */
function imagePart(source: unknown): Part {
  if (!isRecord(source)) return { type: "image" };
  const mediaType = str(source.media_type);
  const data = str(source.data);
  return { type: "image", ...(mediaType ? { mediaType } : {}), ...(data !== undefined ? { bytes: base64Bytes(data) } : {}) };
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function documentText(source: unknown): string | undefined {
  if (!isRecord(source)) return undefined;
  return source.type === "text" ? str(source.data) : str(source.media_type);
}

/** tool_result content is a string or blocks; images inside become `[image]`. */
function resultText(content: unknown): string {
  if (!Array.isArray(content)) return asText(content);
  return content.map((b) => (isRecord(b) ? (b.type === "image" ? "[image]" : (str(b.text) ?? asText(b))) : asText(b))).join("\n");
}

function anthropicUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = {};
  const input = num(raw.input_tokens);
  const output = num(raw.output_tokens);
  const cached = num(raw.cache_read_input_tokens);
  const written = num(raw.cache_creation_input_tokens);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (written !== undefined) usage.cacheWriteTokens = written;
  return Object.keys(usage).length ? usage : undefined;
}
