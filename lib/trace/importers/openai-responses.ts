import { IssueList, type Importer } from "../importer";
import { asText, hasAgentFormatMarkers, isRecord, num, readJsonRecords, str } from "../json-lines";
import type { Message, ParseResult, Part, Role, Session, Usage } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { contentParts, contentText } from "./openai-messages";

/**
 * OpenAI Responses API items. Accepted per JSON value (the whole file, or each JSONL line):
 * an array of items, or `{instructions?, input: [...] | "text", output?: [...], model?, usage?}`
 * (a request, a response, or both merged); a document array of such objects gives one session
 * each. Items: `message` (or the `{role, content}` shorthand) with `input_text` / `output_text`
 * parts, `function_call {call_id, name, arguments}`, `function_call_output {call_id, output}`,
 * `reasoning {summary: [{text}]}`, and the other `*_call` / `*_call_output` tool items.
 *
 * The API lists one model turn as several items (reasoning, message, function calls); consecutive
 * assistant-side items are merged into one assistant message so the canonical model sees one turn.
 */
export const openaiResponsesImporter: Importer = {
  format: "openai_responses",
  label: "OpenAI Responses API items",
  detect: detectOpenAiResponses,
  parse: parseOpenAiResponses,
};

const RESPONSES_ONLY =
  /"type"\s*:\s*"(input_text|output_text|input_image|function_call|function_call_output|summary_text|reasoning)"|"call_id"\s*:|"object"\s*:\s*"response"/;
const ANTHROPIC_ONLY = /"type"\s*:\s*"(tool_use|tool_result|thinking|redacted_thinking)"|"(stop_reason|tool_use_id)"\s*:/;
const ROLE = /"role"\s*:\s*"(system|developer|user|assistant)"/;

/** Responses-only item types score 0.85; a bare `{input: [...]}` of role messages 0.6; plain roles 0.3. */
export function detectOpenAiResponses(name: string, head: string): number {
  if (hasAgentFormatMarkers(name, head)) return 0.1;
  const start = head.trimStart()[0];
  if (start !== "[" && start !== "{") return 0;
  if (ANTHROPIC_ONLY.test(head)) return 0.2;
  if (RESPONSES_ONLY.test(head)) return 0.85;
  if (/"input"\s*:\s*\[/.test(head) && ROLE.test(head)) return 0.6;
  return ROLE.test(head) ? 0.3 : 0;
}

async function parseOpenAiResponses(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const sessions: Session[] = [];
  for await (const { value, lineOf } of readJsonRecords(source, issues)) {
    for (const [prefix, unit] of sessionUnits(value, lineOf(""), issues)) {
      const reader = new ItemReader(new SessionBuilder(`session-${sessions.length + 1}`, "openai_responses"), source.name, lineOf, issues);
      sessions.push(reader.read(unit, prefix));
    }
  }
  return { format: "openai_responses", sessions, issues: issues.items };
}

/** A document array of request/response objects is one session per object; anything else is one. */
function sessionUnits(value: unknown, line: number, issues: IssueList): [string, unknown][] {
  const isExchange = (v: unknown) => isRecord(v) && v.type === undefined && v.role === undefined && ("input" in v || Array.isArray(v.output));
  if (Array.isArray(value) && value.length > 0 && value.every(isExchange)) return value.map((v, i) => [`[${i}].`, v]);
  if (Array.isArray(value) || isRecord(value)) return [["", value]];
  issues.error(line, `expected a JSON object or array, got ${typeof value}`, undefined, "an array of items or {input: [...], output?: [...]}");
  return [];
}

/** Builds one session from items, holding the assistant-side items of the current turn. */
class ItemReader {
  /** Assistant-side parts of the current turn and the field of its first item. */
  private turn: { parts: Part[]; field: string } | undefined;

  constructor(
    private readonly builder: SessionBuilder,
    private readonly file: string,
    private readonly lineOf: (field: string) => number,
    private readonly issues: IssueList,
  ) {}

  read(unit: unknown, prefix: string): Session {
    if (Array.isArray(unit)) {
      unit.forEach((item, i) => this.addItem(item, `${prefix}[${i}]`));
      this.flush();
      return this.builder.build();
    }
    const record = unit as Record<string, unknown>;
    if (record.input === undefined && !Array.isArray(record.output)) {
      const field = prefix ? prefix.slice(0, -1) : "input";
      this.issues.error(this.lineOf(field), "object has neither input nor output", field, "{input: [...]} (a request) or {output: [...]} (a response)");
    }
    this.addRequest(record, prefix);
    const model = str(record.model);
    this.builder.noteModel(model);
    const usage = responsesUsage(record.usage);
    if (Array.isArray(record.output)) {
      record.output.forEach((item, i) => this.addItem(item, `${prefix}output[${i}]`));
    }
    const attached = this.flush({ ...(model ? { model } : {}), ...(usage ? { usage } : {}) });
    return this.builder.build(usage && !attached ? { usage } : {});
  }

  private addRequest(record: Record<string, unknown>, prefix: string): void {
    const instructions = str(record.instructions);
    if (instructions) this.add("system", [{ type: "text", text: instructions }], `${prefix}instructions`);
    if (typeof record.input === "string") this.add("user", [{ type: "text", text: record.input }], `${prefix}input`);
    else if (Array.isArray(record.input)) record.input.forEach((item, i) => this.addItem(item, `${prefix}input[${i}]`));
    else if (record.input !== undefined)
      this.issues.error(this.lineOf(`${prefix}input`), `input is ${typeof record.input}`, `${prefix}input`, "a string or an array of items");
    this.flush();
  }

  private addItem(item: unknown, field: string): void {
    if (!isRecord(item)) {
      this.issues.error(this.lineOf(field), `item is ${Array.isArray(item) ? "an array" : typeof item}, not an object`, field, "{type, …} or {role, content}");
      return;
    }
    const type = str(item.type) ?? (item.role !== undefined ? "message" : undefined);
    if (type === "message") return this.addMessage(item, field);
    if (type === "reasoning") return this.addReasoning(item, field);
    if (type?.endsWith("_call_output")) return this.addCallOutput(item, field);
    if (type?.endsWith("_call")) return this.addCall(item, type, field);
    const line = this.lineOf(field);
    if (type === undefined)
      this.issues.error(
        line,
        "item has neither type nor role",
        `${field}.type`,
        "message | function_call | function_call_output | reasoning | {role, content}",
      );
    else this.issues.warn(line, `item type "${type}" is not imported`, `${field}.type`);
  }

  private addMessage(item: Record<string, unknown>, field: string): void {
    const role = mapRole(item.role);
    if (!role) {
      const problem = item.role === undefined ? "message item has no role" : `unknown role ${JSON.stringify(item.role)}`;
      this.issues.error(this.lineOf(field), problem, `${field}.role`, "user | system | developer | assistant");
      return;
    }
    if (item.content !== undefined && typeof item.content !== "string" && !Array.isArray(item.content)) {
      this.issues.error(
        this.lineOf(field),
        `content is ${typeof item.content}; imported as its JSON text`,
        `${field}.content`,
        "a string or an array of content parts",
      );
    }
    const parts = contentParts(item.content);
    if (role === "assistant") this.appendToTurn(parts, field);
    else this.add(role, parts, field);
  }

  private addReasoning(item: Record<string, unknown>, field: string): void {
    const pieces = [item.summary, item.content].flatMap((list) => (Array.isArray(list) ? list : [])).map((p) => (isRecord(p) ? str(p.text) : undefined));
    const text = pieces.filter((t): t is string => Boolean(t)).join("\n");
    if (text) this.appendToTurn([{ type: "reasoning", text }], field);
  }

  private addCall(item: Record<string, unknown>, type: string, field: string): void {
    const name = str(item.name) ?? type.replace(/_call$/, "");
    const id = str(item.call_id) ?? str(item.id) ?? this.builder.nextSyntheticCallId();
    const args = item.arguments ?? item.input ?? item.action ?? item.queries ?? item.code;
    this.appendToTurn([{ type: "tool_call", id, name, arguments: asText(args) }], field);
  }

  private addCallOutput(item: Record<string, unknown>, field: string): void {
    let callId = str(item.call_id);
    if (!callId) {
      this.issues.error(
        this.lineOf(field),
        "tool output without call_id; paired with the latest call",
        `${field}.call_id`,
        "the call_id of an earlier function_call",
      );
      callId = this.builder.lastCall()?.id ?? this.builder.nextSyntheticCallId();
    }
    this.add("tool", [{ type: "tool_result", callId, content: contentText(item.output) }], field);
  }

  private appendToTurn(parts: Part[], field: string): void {
    this.turn ??= { parts: [], field };
    this.turn.parts.push(...parts);
  }

  private add(role: Role, parts: Part[], field: string): void {
    this.flush();
    this.builder.add({ role, parts, source: { file: this.file, line: this.lineOf(field) } });
  }

  /** Adds the pending assistant turn; returns whether there was one (to carry model and usage). */
  private flush(extra: Pick<Message, "model" | "usage"> = {}): boolean {
    const turn = this.turn;
    this.turn = undefined;
    if (!turn) return false;
    this.builder.add({ role: "assistant", parts: turn.parts, source: { file: this.file, line: this.lineOf(turn.field) }, ...extra });
    return true;
  }
}

function mapRole(role: unknown): Role | undefined {
  if (role === "system" || role === "developer") return "system";
  if (role === "user" || role === "assistant") return role;
  return undefined;
}

/** Responses `usage` → canonical usage (`input_tokens_details.cached_tokens` is the cache hit). */
function responsesUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = {};
  const input = num(raw.input_tokens);
  const output = num(raw.output_tokens);
  const cached = isRecord(raw.input_tokens_details) ? num(raw.input_tokens_details.cached_tokens) : undefined;
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  return Object.keys(usage).length ? usage : undefined;
}
