import { IssueList, type Importer } from "../importer";
import { asText, isRecord, num, readJsonRecords, str } from "../json-lines";
import type { Message, ParseIssue, ParseResult, Session, ToolCallPart, Usage } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { addOpenAiChatMessage } from "./openai-messages";
import { hasIndexedMessages } from "./otel-indexed-messages";
import { MESSAGE_EVENTS, readInputs, readOutputs, type ChatInput, type Span, type SpanEvent } from "./otel-genai-messages";

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
  parse: parseOtelGenai,
};

async function parseOtelGenai(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const spans: Span[] = [];
  for await (const record of readJsonRecords(source, issues, SPAN_LOCATE_DEPTH)) spans.push(...collectSpans(record.value, record.lineOf, issues));
  const sessions: Session[] = [];
  for (const traceSpans of groupByTrace(spans).values()) {
    sessions.push(buildTraceSession(traceSpans, sessions.length + 1, source.name, issues));
  }
  return { format: "otel_genai_spans", sessions, issues: issues.items };
}

/**
 * One session from OTLP JSON records (`{resourceSpans:[…]}`, one per stored span) whatever trace
 * ids they carry: the OTLP receiver groups spans by conversation or session id, which may span
 * several traces. Record `i` is reported as line `i + 1`. The session's id is `id`.
 */
export function buildOtelSession(records: readonly unknown[], options: { id: string; file: string }): { session: Session; issues: ParseIssue[] } {
  const issues = new IssueList(options.file);
  const spans = records.flatMap((record, i) => collectSpans(record, () => i + 1, issues));
  const session = buildTraceSession(spans, 1, options.file, issues, options.id);
  return { session, issues: issues.items };
}

/** Deep enough to locate OTLP spans (`resourceSpans[0].scopeSpans[0].spans[3]`). */
const SPAN_LOCATE_DEPTH = 6;

type LineOf = (field: string) => number;

function collectSpans(value: unknown, lineOf: LineOf, issues: IssueList): Span[] {
  if (Array.isArray(value)) return value.flatMap((raw, i) => normalizeSpan(raw, `[${i}]`, lineOf, issues));
  if (isRecord(value) && Array.isArray(value.spans)) return value.spans.flatMap((raw, i) => normalizeSpan(raw, `spans[${i}]`, lineOf, issues));
  if (isRecord(value) && Array.isArray(value.resourceSpans)) return collectOtlpSpans(value.resourceSpans, lineOf, issues);
  issues.error(lineOf(""), "not a span dump", undefined, "{spans: [...]}, an array of spans, or OTLP {resourceSpans: [...]}");
  return [];
}

function collectOtlpSpans(resourceSpans: unknown[], lineOf: LineOf, issues: IssueList): Span[] {
  const spans: Span[] = [];
  resourceSpans.forEach((resource, r) => {
    const scopes = isRecord(resource) ? (resource.scopeSpans ?? resource.instrumentationLibrarySpans) : undefined;
    if (!Array.isArray(scopes)) return;
    scopes.forEach((scope, s) => {
      if (!isRecord(scope) || !Array.isArray(scope.spans)) return;
      scope.spans.forEach((raw, i) => spans.push(...normalizeSpan(raw, `resourceSpans[${r}].scopeSpans[${s}].spans[${i}]`, lineOf, issues)));
    });
  });
  return spans;
}

/** SDK dumps say `context.trace_id` / `start_time` / `status.status_code`; OTLP `traceId` / `startTimeUnixNano` / `status.code`. */
function normalizeSpan(raw: unknown, field: string, lineOf: LineOf, issues: IssueList): Span[] {
  const line = lineOf(field);
  if (!isRecord(raw)) {
    issues.error(line, "span is not an object", field, "{name, start_time, attributes, …}");
    return [];
  }
  const traceId = raw.traceId ?? (isRecord(raw.context) ? raw.context.trace_id : undefined);
  const status = isRecord(raw.status) ? (raw.status.status_code ?? raw.status.code) : undefined;
  const startMs = timeMs(raw.start_time ?? raw.startTimeUnixNano ?? raw.startTime);
  const events = (Array.isArray(raw.events) ? raw.events : []).flatMap((event, i) => readEvent(event, `${field}.events[${i}]`));
  return [
    {
      traceKey: traceId === undefined ? "" : String(traceId),
      ...(typeof traceId === "string" && traceId ? { traceId } : {}),
      ...(startMs !== undefined ? { startMs } : {}),
      attributes: withOperationDetails(readAttributes(raw.attributes), events),
      events,
      isError: ["error", "ERROR", "STATUS_CODE_ERROR", 2].includes(status as string | number),
      field,
      line,
    },
  ];
}

/**
 * Semantic conventions ≥ 1.37 may carry the messages on one span event,
 * `gen_ai.client.inference.operation.details`, instead of span attributes (so they can be sent as
 * log records): its `gen_ai.input.messages`, `gen_ai.output.messages` and
 * `gen_ai.system_instructions` are read as if they were the span's, unless the span has its own.
 */
function withOperationDetails(attributes: Record<string, unknown>, events: SpanEvent[]): Record<string, unknown> {
  const details = events.find((e) => e.name === "gen_ai.client.inference.operation.details");
  if (!details) return attributes;
  const merged = { ...attributes };
  for (const key of DETAIL_ATTRIBUTES) if (!(key in merged) && key in details.attributes) merged[key] = details.attributes[key];
  return merged;
}
const DETAIL_ATTRIBUTES = ["gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions"];

function readEvent(event: unknown, field: string): SpanEvent[] {
  if (!isRecord(event) || !str(event.name)) return [];
  const ms = timeMs(event.timestamp ?? event.timeUnixNano ?? event.time);
  return [{ name: str(event.name)!, ...(ms !== undefined ? { timeMs: ms } : {}), attributes: readAttributes(event.attributes), field }];
}

/** SDK dumps keep attributes as an object; OTLP JSON as `[{key, value: {stringValue|intValue|…}}]`. */
function readAttributes(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (!Array.isArray(raw)) return {};
  const out: Record<string, unknown> = {};
  for (const entry of raw) if (isRecord(entry) && str(entry.key)) out[str(entry.key)!] = otlpValue(entry.value);
  return out;
}

function otlpValue(value: unknown): unknown {
  if (!isRecord(value)) return value;
  if ("stringValue" in value) return value.stringValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return Number(value.doubleValue);
  if ("boolValue" in value) return value.boolValue;
  if (isRecord(value.arrayValue)) return Array.isArray(value.arrayValue.values) ? value.arrayValue.values.map(otlpValue) : [];
  if (isRecord(value.kvlistValue)) return readAttributes(value.kvlistValue.values);
  return undefined;
}

/**
 * Span times come as unix nanoseconds (a JSON number, already rounded past 2^53, or an OTLP digit
 * string, split so no precision is lost) or as ISO text. Milliseconds suffice.
 */
function timeMs(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value / 1e6;
  if (typeof value !== "string") return undefined;
  if (/^\d+$/.test(value)) return Number(value.slice(0, -6) || "0") + Number(`0.${value.slice(-6).padStart(6, "0")}`);
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
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

function buildTraceSession(spans: Span[], ordinal: number, file: string, issues: IssueList, sessionId?: string): Session {
  // Array sort is stable, so spans with equal (or missing) start times keep their file order.
  const ordered = [...spans].sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0));
  const id = sessionId ?? ordered.find((s) => s.traceId)?.traceId ?? `trace-${ordinal}`;
  const conversation = new SpanConversation(new SessionBuilder(id, "otel_genai_spans"), file, issues);
  let agent: string | undefined;
  for (const span of ordered) {
    const operation = str(span.attributes["gen_ai.operation.name"]);
    agent ??= str(span.attributes["gen_ai.agent.name"]);
    if (operation === "execute_tool" || span.attributes["openinference.span.kind"] === "TOOL") conversation.addToolSpan(span);
    else if (isLlmSpan(span, operation)) conversation.addLlmSpan(span);
    else conversation.noteModel(str(span.attributes["gen_ai.request.model"]));
  }
  return conversation.build(agent);
}

function isLlmSpan(span: Span, operation: string | undefined): boolean {
  if (operation && LLM_OPERATIONS.has(operation)) return true;
  if (operation) return false;
  if (span.attributes["openinference.span.kind"] === "LLM" || hasIndexedMessages(span.attributes)) return true;
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
    const inputs = readInputs(span, this.issues);
    if (inputs) this.addInputs(inputs, span);
    const outputs = readOutputs(span, this.issues);
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
    if (!call) this.issues.warn(span.line, `execute_tool span for "${name}" has no matching tool call in an earlier LLM output; kept as an orphan result`, span.field);
    const a = span.attributes;
    const content = asText(a["gen_ai.output"] ?? a["gen_ai.tool.call.result"] ?? a["gen_ai.tool.output"] ?? a["output.value"]);
    const result = { type: "tool_result" as const, callId: call?.id ?? id ?? this.builder.nextSyntheticCallId(), name, content, ...(span.isError ? { isError: true } : {}) };
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
