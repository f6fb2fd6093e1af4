import { IssueList, type Importer } from "../importer";
import { hasAgentFormatMarkers, isRecord, num, readJsonRecords, str } from "../json-lines";
import type { ParseResult, Session, Usage } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { addOpenAiChatMessage } from "./openai-messages";

/**
 * Plain OpenAI Chat Completions conversations, the lingua franca of agent logs and fine-tuning
 * sets. Accepted per JSON value (the whole file, or each line of a JSONL file):
 * - an array of messages;
 * - a request body `{model?, messages: [...]}`; when the same object also carries a response
 *   (`choices[0].message`, `usage`), that message is appended as the final assistant turn;
 * - a bare response `{choices: [...]}`;
 * - a document array of request objects (one session each).
 * One session per value. Messages map through the shared Chat Completions mapping, so
 * `tool_calls` ↔ `tool_call_id` link exactly as in tau-bench or mini-swe-agent.
 */
export const openaiChatImporter: Importer = {
  format: "openai_chat",
  label: "OpenAI Chat Completions messages",
  detect: detectOpenAiChat,
  parse: parseOpenAiChat,
};

const ROLE = /"role"\s*:\s*"(system|developer|user|assistant|tool|function)"/;
const CHAT_ONLY = /"(tool_calls|tool_call_id|image_url|finish_reason|prompt_tokens)"\s*:|"object"\s*:\s*"chat\.completion|"role"\s*:\s*"(tool|function)"/;
const OTHER_API =
  /"type"\s*:\s*"(input_text|output_text|function_call|function_call_output|tool_use|tool_result|thinking|redacted_thinking)"|"(stop_reason|tool_use_id|call_id|input_schema)"\s*:/;

/** Role-tagged messages score 0.55, 0.85 with Chat-only fields (`tool_calls`, `choices`…); Responses/Anthropic fields pull it under 0.5. */
export function detectOpenAiChat(name: string, head: string): number {
  if (hasAgentFormatMarkers(name, head)) return 0.1;
  const start = head.trimStart()[0];
  if ((start !== "[" && start !== "{") || (!ROLE.test(head) && !/"choices"\s*:/.test(head))) return 0;
  const chatOnly = CHAT_ONLY.test(head);
  if (OTHER_API.test(head)) return chatOnly ? 0.4 : 0.25;
  return chatOnly ? 0.85 : 0.55;
}

async function parseOpenAiChat(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const sessions: Session[] = [];
  for await (const { value, lineOf } of readJsonRecords(source, issues)) {
    for (const unit of sessionUnits(value, lineOf, issues)) {
      sessions.push(buildChatSession(`session-${sessions.length + 1}`, unit, source.name, issues));
    }
  }
  return { format: "openai_chat", sessions, issues: issues.items };
}

/** What one session is built from, with the field prefix its messages are reported under. */
interface ChatUnit {
  lineOf: LineOf;
  prefix: string;
  messages: unknown[];
  model?: string;
  response?: Record<string, unknown>;
}

/** Line of the value at a field path (the record's line for JSONL). */
type LineOf = (field: string) => number;

function sessionUnits(value: unknown, lineOf: LineOf, issues: IssueList): ChatUnit[] {
  if (Array.isArray(value)) {
    const requests = value.length > 0 && value.every((v) => isRecord(v) && (Array.isArray(v.messages) || Array.isArray(v.choices)));
    if (!requests) return [{ lineOf, prefix: "", messages: value }];
    return value.flatMap((v, i) => requestUnit(v as Record<string, unknown>, lineOf, `[${i}].`, issues));
  }
  if (isRecord(value)) return requestUnit(value, lineOf, "", issues);
  issues.error(lineOf(""), `expected a JSON object or array, got ${typeof value}`, undefined, "an array of messages or {messages: [...]}");
  return [];
}

function requestUnit(value: Record<string, unknown>, lineOf: LineOf, prefix: string, issues: IssueList): ChatUnit[] {
  const hasChoices = Array.isArray(value.choices);
  if (value.messages !== undefined && !Array.isArray(value.messages)) {
    issues.error(lineOf(`${prefix}messages`), "messages is not an array", `${prefix}messages`, "an array of {role, content} messages");
    return [];
  }
  if (!Array.isArray(value.messages) && !hasChoices) {
    const field = prefix ? prefix.slice(0, -1) : "";
    issues.error(
      lineOf(field),
      "object has neither messages nor choices",
      field || undefined,
      "{messages: [...]} (a request) or {choices: [...]} (a response)",
    );
    return [];
  }
  return [
    {
      lineOf,
      prefix: `${prefix}messages`,
      messages: Array.isArray(value.messages) ? value.messages : [],
      ...(str(value.model) ? { model: str(value.model) } : {}),
      ...(hasChoices ? { response: value } : {}),
    },
  ];
}

function buildChatSession(id: string, unit: ChatUnit, file: string, issues: IssueList): Session {
  const builder = new SessionBuilder(id, "openai_chat");
  builder.noteModel(unit.model);
  unit.messages.forEach((raw, i) => {
    const field = `${unit.prefix}[${i}]`;
    const line = unit.lineOf(field);
    if (checkChatMessage(raw, field, line, issues)) addOpenAiChatMessage(builder, raw, { file, line, field }, issues);
  });
  if (unit.response) addResponse(builder, unit.response, unit, file, issues);
  return builder.build();
}

/**
 * Type checks the shared mapping does not make, so a converter bug is reported at its field
 * instead of silently becoming text. Returns false when the message cannot be imported at all.
 */
function checkChatMessage(raw: unknown, field: string, line: number, issues: IssueList): boolean {
  if (!isRecord(raw)) {
    issues.error(line, `message is ${Array.isArray(raw) ? "an array" : typeof raw}, not an object`, field, "{role, content}");
    return false;
  }
  if (raw.role === undefined) {
    issues.error(line, "message has no role", `${field}.role`, "system | developer | user | assistant | tool");
    return false;
  }
  const content = raw.content;
  if (content !== undefined && content !== null && typeof content !== "string" && !Array.isArray(content)) {
    issues.error(line, `content is ${typeof content}; imported as its JSON text`, `${field}.content`, "a string, an array of content parts, or null");
  }
  if (raw.tool_calls !== undefined && raw.tool_calls !== null && !Array.isArray(raw.tool_calls)) {
    issues.error(line, "tool_calls is not an array; calls ignored", `${field}.tool_calls`, 'an array of {id, type: "function", function: {name, arguments}}');
  }
  if (raw.role === "tool" && typeof raw.tool_call_id !== "string") {
    issues.warn(line, "tool message without a string tool_call_id; paired with the latest call", `${field}.tool_call_id`);
  }
  return true;
}

/** Appends `choices[0].message` of a response with its model and usage. */
function addResponse(builder: SessionBuilder, response: Record<string, unknown>, unit: ChatUnit, file: string, issues: IssueList): void {
  const choices = response.choices as unknown[];
  const field = `${unit.prefix.replace(/messages$/, "")}choices[0].message`;
  const line = unit.lineOf(field);
  const choice = choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) {
    issues.error(line, "response has no choices[0].message", field, '{role: "assistant", content}');
    return;
  }
  const message = { role: "assistant", ...choice.message };
  const model = str(response.model) ?? unit.model;
  const usage = chatUsage(response.usage);
  if (checkChatMessage(message, field, line, issues)) {
    addOpenAiChatMessage(builder, message, { file, line, field }, issues, { ...(model ? { model } : {}), ...(usage ? { usage } : {}) });
  }
}

/** Chat Completions `usage` → canonical usage (`prompt_tokens_details.cached_tokens` is the cache hit). */
function chatUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = {};
  const input = num(raw.prompt_tokens);
  const output = num(raw.completion_tokens);
  const cached = isRecord(raw.prompt_tokens_details) ? num(raw.prompt_tokens_details.cached_tokens) : undefined;
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  return Object.keys(usage).length ? usage : undefined;
}
