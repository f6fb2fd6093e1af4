import { IssueList, type Importer } from "../importer";
import { asText, isRecord, num, readJsonRecords, str } from "../json-lines";
import type { Message, ParseIssue, ParseResult, Session, ToolCallPart, Usage } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { addOpenAiChatMessage } from "./openai-messages";
import { hasIndexedMessages } from "./otel-indexed-messages";
import { MESSAGE_EVENTS, readInputs, readOutputs, type ChatInput, type Span } from "./otel-genai-messages";
import { collectSpans, SPAN_LOCATE_DEPTH } from "./otel-span-dump";
import { inputValueMessages, withOutputValueCalls } from "./openinference-values";

/**
 * OpenTelemetry GenAI spans. Three span shapes are read, so dumps from different SDK versions
 * import the same way:
 * - mozilla-ai any-agent `AgentTrace` (`{spans, final_output}`): the first `call_llm` span carries
 *   the prompt in `gen_ai.input.messages` (OpenAI-style JSON), every `call_llm` span its output in
 *   `gen_ai.output` (text, or `[{"tool.name","tool.args"}]`), every `execute_tool` span one result;
 * - current semantic conventions: `gen_ai.input.messages` / `gen_ai.output.messages` with `parts`
 *   (`text`, `tool_call`, `tool_call_response`, …) plus `gen_ai.system_instructions`;
 * - the older event style: span events `gen_ai.{system,user,assistant,tool}.message` and
 *   `gen_ai.choice`.
 * Span containers accepted: `{spans:[…]}`, a bare array of spans, and OTLP JSON
 * (`{resourceSpans:[{scopeSpans:[{spans}]}]}`, also one such object per line). One session per
 * trace id. Tool calls without ids get `call_<n>`; `execute_tool` results pair with the pending
 * call of the same tool name (or `gen_ai.tool.call.id`), in order.
 */
export const otelGenaiImporter: Importer = {
  format: "otel_genai_spans",
  label: "OpenTelemetry GenAI spans",
  detect(_name, head) {
    if (!/"gen_ai\.(operation\.name|request\.model|input\.messages|output|system|usage)/.test(head)) return 0;
    return /"(spans|resourceSpans|scopeSpans)"\s*:/.test(head) || /^\s*\[\s*\{\s*"name"/.test(head) ? 0.95 : 0.6;
  },
  parse: (source) => parseSpanDump(source, "otel_genai_spans"),
};

/** The formats whose files are span dumps read by this parser (they differ in detection and label). */
export type SpanFormat = "otel_genai_spans" | "openinference_spans" | "openllmetry_spans";

/** Parses a span dump into one session per trace id, labelled with `format`. */
export async function parseSpanDump(source: TraceSource, format: SpanFormat): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const spans: Span[] = [];
  for await (const record of readJsonRecords(source, issues, SPAN_LOCATE_DEPTH)) spans.push(...collectSpans(record.value, record.lineOf, issues));
  const sessions: Session[] = [];
  for (const traceSpans of groupByTrace(spans).values()) {
    sessions.push(buildTraceSession(traceSpans, { ordinal: sessions.length + 1, file: source.name, format }, issues));
  }
  return { format, sessions, issues: issues.items };
}

/**
 * One session from OTLP JSON records (`{resourceSpans:[…]}`, one per stored span) whatever trace
 * ids they carry: the OTLP receiver groups spans by conversation or session id, which may span
 * several traces. Record `i` is reported as line `i + 1`. The session's id is `id`.
 */
export function buildOtelSession(records: readonly unknown[], options: { id: string; file: string }): { session: Session; issues: ParseIssue[] } {
  const issues = new IssueList(options.file);
  const spans = records.flatMap((record, i) => collectSpans(record, () => i + 1, issues));
  const session = buildTraceSession(spans, { ordinal: 1, file: options.file, format: "otel_genai_spans", id: options.id }, issues);
  return { session, issues: issues.items };
}

function groupByTrace(spans: Span[]): Map<string, Span[]> {
  const groups = new Map<string, Span[]>();
  for (const span of spans) {
    const group = groups.get(span.traceKey) ?? [];
    group.push(span);
    groups.set(span.traceKey, group);
  }
  return groups;
}

interface TraceOptions {
  ordinal: number;
  file: string;
  format: SpanFormat;
  id?: string;
}

function buildTraceSession(spans: Span[], options: TraceOptions, issues: IssueList): Session {
  // Array sort is stable, so spans with equal (or missing) start times keep their file order.
  const ordered = [...spans].sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0));
  const id = options.id ?? ordered.find((s) => s.traceId)?.traceId ?? `trace-${options.ordinal}`;
  const conversation = new SpanConversation(new SessionBuilder(id, options.format), options.file, issues);
  const wrappers = llmWrappers(ordered);
  let agent: string | undefined;
  for (const span of ordered) {
    const operation = str(span.attributes["gen_ai.operation.name"]);
    agent ??= str(span.attributes["gen_ai.agent.name"]);
    if (operation === "execute_tool" || span.attributes["openinference.span.kind"] === "TOOL") conversation.addToolSpan(span);
    else if (isLlmSpan(span, operation) && !wrappers.has(span)) conversation.addLlmSpan(span);
    else conversation.noteModel(str(span.attributes["gen_ai.request.model"]));
  }
  return conversation.build(agent);
}

/**
 * OpenInference instrumentations may record one model call as nested LLM spans (smolagents wraps
 * `LiteLLMModel.__call__` three deep, each with the same output): only the innermost is read.
 */
function llmWrappers(spans: Span[]): Set<Span> {
  const llmKeys = new Map(spans.filter((s) => s.spanKey && s.attributes["openinference.span.kind"] === "LLM").map((s) => [s.spanKey!, s]));
  const wrappers = new Set<Span>();
  for (const span of llmKeys.values()) {
    const parent = span.parentKey ? llmKeys.get(span.parentKey) : undefined;
    if (parent) wrappers.add(parent);
  }
  return wrappers;
}

/**
 * An OpenInference span kind decides (CHAIN and AGENT spans repeat the prompt in
 * `llm.input_messages` without being model calls); otherwise the operation name, then the presence
 * of message attributes or events.
 */
function isLlmSpan(span: Span, operation: string | undefined): boolean {
  if (operation && LLM_OPERATIONS.has(operation)) return true;
  if (operation) return false;
  const kind = span.attributes["openinference.span.kind"];
  if (kind !== undefined) return kind === "LLM";
  if (hasIndexedMessages(span.attributes)) return true;
  return LLM_ATTRIBUTES.some((key) => key in span.attributes) || span.events.some((e) => MESSAGE_EVENTS.has(e.name));
}

const LLM_OPERATIONS = new Set(["call_llm", "chat", "text_completion", "generate_content", "completion"]);
const LLM_ATTRIBUTES = ["gen_ai.input.messages", "gen_ai.output.messages"];

/**
 * Replays one trace's spans into a session. Inputs of later LLM spans usually repeat the whole
 * history (semantic conventions) — only the part past what was already emitted is added, and tool
 * results already delivered by an `execute_tool` span are not added twice.
 */
class SpanConversation {
  private readonly pending: ToolCallPart[] = [];
  private readonly answered = new Set<string>();
  /** How many input-list messages the conversation already covers (history mode). */
  private historyLength = 0;
  private firstInputKey: string | undefined;

  constructor(
    private readonly builder: SessionBuilder,
    private readonly file: string,
    private readonly issues: IssueList,
  ) {}

  noteModel(model: string | undefined): void {
    this.builder.noteModel(model);
  }

  addLlmSpan(span: Span): void {
    const inputs = readInputs(span, this.issues) ?? (this.builder.messageCount === 0 ? inputValueMessages(span) : undefined);
    if (inputs?.length) this.addInputs(inputs, span);
    const outputs = withOutputValueCalls(readOutputs(span, this.issues), span);
    const model = str(span.attributes["gen_ai.request.model"]) ?? str(span.attributes["gen_ai.response.model"]) ?? str(span.attributes["llm.model_name"]);
    const usage = readUsage(span.attributes);
    outputs.forEach((output, i) => {
      const last = i === outputs.length - 1;
      this.addChat(output, span, { ...(model ? { model } : {}), ...(last && usage ? { usage } : {}) });
    });
    if (!outputs.length) this.builder.noteModel(model);
    this.historyLength += outputs.length;
  }

  addToolSpan(span: Span): void {
    const name = str(span.attributes["gen_ai.tool.name"]) ?? str(span.attributes["tool.name"]) ?? "tool";
    const id = str(span.attributes["gen_ai.tool.call.id"]) ?? str(span.attributes["tool_call.id"]);
    if (id && this.answered.has(id)) return;
    const call = this.takePendingCall(id, name);
    if (!call)
      this.issues.warn(span.line, `execute_tool span for "${name}" has no matching tool call in an earlier LLM output; kept as an orphan result`, span.field);
    const a = span.attributes;
    const content = asText(a["gen_ai.output"] ?? a["gen_ai.tool.call.result"] ?? a["gen_ai.tool.output"] ?? a["output.value"]);
    const result = {
      type: "tool_result" as const,
      callId: call?.id ?? id ?? this.builder.nextSyntheticCallId(),
      name,
      content,
      ...(span.isError ? { isError: true } : {}),
    };
    this.track(this.builder.add({ role: "tool", parts: [result], source: { file: this.file, line: span.line }, ...isoTime(span.startMs) }));
  }

  build(agent: string | undefined): Session {
    return this.builder.build(agent ? { meta: { agent } } : {});
  }

  private addInputs(inputs: ChatInput[], span: Span): void {
    const key = inputs[0] ? JSON.stringify(inputs[0].raw) : "";
    const isHistory = this.firstInputKey !== undefined && key === this.firstInputKey;
    this.firstInputKey ??= key;
    const fresh = isHistory ? inputs.slice(this.historyLength) : inputs;
    for (const input of fresh) {
      const callId = input.raw.role === "tool" ? str(input.raw.tool_call_id) : undefined;
      if (callId && this.answered.has(callId)) continue;
      this.addChat(input, span, {});
    }
    this.historyLength = isHistory ? Math.max(this.historyLength, inputs.length) : this.historyLength + inputs.length;
  }

  private addChat(input: ChatInput, span: Span, extra: Pick<Message, "model" | "usage">): void {
    const where = { file: this.file, line: span.line, field: input.field };
    const added = addOpenAiChatMessage(this.builder, input.raw, where, this.issues, { ...extra, ...isoTime(input.timeMs ?? span.startMs) });
    if (added) this.track(added);
  }

  /** The pending call this tool span answers: the one with its call id, else the oldest of that name. */
  private takePendingCall(id: string | undefined, name: string): ToolCallPart | undefined {
    let index = id ? this.pending.findIndex((c) => c.id === id) : -1;
    if (index < 0) index = this.pending.findIndex((c) => c.name === name);
    return index >= 0 ? this.pending.splice(index, 1)[0] : undefined;
  }

  /** Keeps the list of calls still waiting for a result, for pairing `execute_tool` spans. */
  private track(message: Message): void {
    for (const part of message.parts) {
      if (part.type === "tool_call") {
        this.pending.push(part);
        // A new call reusing an answered call's id (tau-bench reuses ids) waits for its own result.
        this.answered.delete(part.id);
      }
      if (part.type === "tool_result") {
        this.answered.add(part.callId);
        const index = this.pending.findIndex((c) => c.id === part.callId);
        if (index >= 0) this.pending.splice(index, 1);
      }
    }
  }
}

function isoTime(ms: number | undefined): { timestamp?: string } {
  return ms === undefined || !Number.isFinite(ms) ? {} : { timestamp: new Date(ms).toISOString() };
}

/** Usage attributes, current names first, then the older `prompt`/`completion` spellings, then OpenInference's. */
const USAGE_ATTRIBUTES: [keyof Usage, string[]][] = [
  ["inputTokens", ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"]],
  ["outputTokens", ["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion"]],
  ["cachedInputTokens", ["gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens"]],
  ["cacheWriteTokens", ["gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.cache_creation_input_tokens"]],
];

function readUsage(attributes: Record<string, unknown>): Usage | undefined {
  const usage: Usage = {};
  for (const [key, names] of USAGE_ATTRIBUTES) {
    const value = names.map((name) => num(attributes[name])).find((v) => v !== undefined);
    if (value !== undefined) usage[key] = value;
  }
  return Object.keys(usage).length ? usage : undefined;
}
