import { z } from "zod";
import { IssueList, type Importer } from "../importer";
import { hasJsonKey, isRecord, jsonKind, num, readLocatedJsonDocument, str } from "../json-lines";
import type { Message, ParseResult, Session, ToolCallPart, Usage } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { reportZodIssues } from "../zod-issues";
import { chatMessagesOf, toolOutputText } from "./langfuse-messages";
import { addOpenAiChatMessage } from "./openai-messages";
import { tryJson } from "./otel-genai-messages";

/**
 * Langfuse trace exports (the trace JSON the UI and `GET /api/public/traces/{id}` give):
 * `{trace: {id, name, timestamp, sessionId, input, output, metadata, …}, observations: [{id, type
 * GENERATION | SPAN | EVENT | TOOL | AGENT …, name, startTime, input, output, model, usageDetails,
 * metadata}]}` (a bare trace with its own `observations` is accepted too). One session per trace.
 *
 * Observations are replayed in start-time order. A GENERATION is a model call: the first one's
 * input opens the conversation (its messages, whatever their shape: langfuse-messages.ts); a later
 * one's input repeats the history, so only what is new is taken from it (tool results of known,
 * unanswered calls and user messages not seen yet); every output is added with its model and usage.
 * A TOOL observation, or any observation whose OTel metadata names `gen_ai.tool.name`, is one tool
 * result, paired with the pending call of its id (`gen_ai.tool.call.id`) or else its tool name.
 * SPAN, EVENT and AGENT observations are structure, not conversation.
 */
export const langfuseTraceImporter: Importer = {
  format: "langfuse_trace",
  label: "Langfuse trace exports",
  detect(_name, head) {
    if (!/^\uFEFF?\s*\{/.test(head) || !hasJsonKey(head, "observations")) return 0;
    let score = 0.5;
    if (/"type"\s*:\s*"(GENERATION|SPAN|EVENT|TOOL|AGENT)"/.test(head)) score += 0.3;
    if (hasJsonKey(head, "parentObservationId") || hasJsonKey(head, "traceId")) score += 0.15;
    // OTel-ingested observations carry OpenLLMetry attributes in their metadata: the export wins.
    if (hasJsonKey(head, "trace")) score += 0.04;
    return score;
  },
  parse: parseLangfuse,
};

const SHAPE = "{trace: {id, …}, observations: [{type, startTime, input, output}]}";
const ObservationSchema = z.looseObject({
  id: z.string().nullish(),
  type: z.string(),
  name: z.string().nullish(),
  startTime: z.string().nullish(),
  model: z.string().nullish(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  metadata: z.unknown().optional(),
  usageDetails: z.record(z.string(), z.number()).nullish(),
});
type Observation = z.infer<typeof ObservationSchema>;
const TraceSchema = z.looseObject({ id: z.string(), name: z.string().nullish(), timestamp: z.string().nullish(), sessionId: z.string().nullish() });

async function parseLangfuse(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const doc = await readLocatedJsonDocument(source, issues, 3);
  const sessions: Session[] = [];
  if (doc) {
    const value = doc.value;
    const traceValue = isRecord(value) && isRecord(value.trace) ? value.trace : value;
    const field = traceValue === value ? "" : "trace";
    const trace = TraceSchema.safeParse(traceValue);
    const list =
      isRecord(value) && Array.isArray(value.observations)
        ? { items: value.observations, field: "observations" }
        : isRecord(traceValue) && Array.isArray(traceValue.observations)
          ? { items: traceValue.observations, field: `${field}.observations` }
          : undefined;
    if (!isRecord(value)) issues.error(1, `expected a Langfuse trace export object, found ${jsonKind(value)}`, undefined, SHAPE);
    else if (!trace.success) reportZodIssues(issues, trace.error, { field, lineOf: doc.lineOf }, "not a Langfuse trace");
    else if (!list) issues.error(1, "the trace has no observations array", "observations", SHAPE);
    else {
      const observations: { observation: Observation; line: number; field: string }[] = [];
      list.items.forEach((raw, i) => {
        const where = `${list.field}[${i}]`;
        const parsed = ObservationSchema.safeParse(raw);
        if (parsed.success) observations.push({ observation: parsed.data, line: doc.lineOf(where), field: where });
        else reportZodIssues(issues, parsed.error, { field: where, lineOf: doc.lineOf }, "observation skipped");
      });
      // Stable sort: observations with equal start times keep their export order.
      observations.sort((a, b) => (a.observation.startTime ?? "").localeCompare(b.observation.startTime ?? ""));
      const conversation = new LangfuseConversation(new SessionBuilder(trace.data.id, "langfuse_trace"), source.name, issues);
      for (const entry of observations) conversation.add(entry.observation, entry.line, entry.field);
      const meta: Record<string, string> = trace.data.sessionId ? { langfuseSessionId: trace.data.sessionId } : {};
      sessions.push(
        conversation.builder.build({
          ...(trace.data.name ? { title: trace.data.name } : {}),
          ...(trace.data.timestamp ? { startedAt: trace.data.timestamp } : {}),
          meta,
        }),
      );
    }
  }
  return { format: "langfuse_trace", sessions, issues: issues.items };
}

class LangfuseConversation {
  private readonly pending: ToolCallPart[] = [];
  private readonly answered = new Set<string>();
  private readonly userTexts = new Set<string>();
  private generations = 0;

  constructor(
    readonly builder: SessionBuilder,
    private readonly file: string,
    private readonly issues: IssueList,
  ) {}

  add(observation: Observation, line: number, field: string): void {
    const attributes = metadataAttributes(observation.metadata);
    if (observation.type === "GENERATION") this.addGeneration(observation, line, field);
    else if (observation.type === "TOOL" || str(attributes["gen_ai.tool.name"])) this.addToolResult(observation, attributes, line, field);
  }

  private addGeneration(observation: Observation, line: number, field: string): void {
    const first = this.generations++ === 0;
    const inputs = chatMessagesOf(observation.input, "user").filter((m) => first || this.isNew(m));
    inputs.forEach((m) => this.addChat(m, line, `${field}.input`, {}));
    const outputs = chatMessagesOf(observation.output, "assistant");
    const model = observation.model ?? undefined;
    const usage = usageOf(observation.usageDetails);
    outputs.forEach((m, i) =>
      this.addChat(m, line, `${field}.output`, { ...(model ? { model } : {}), ...(usage && i === outputs.length - 1 ? { usage } : {}) }),
    );
    if (!outputs.length) this.builder.noteModel(model);
  }

  /** A later generation's input message worth adding: a result of a known unanswered call, or an unseen user message. */
  private isNew(message: Record<string, unknown>): boolean {
    if (message.role === "tool") {
      const id = str(message.tool_call_id);
      return !!id && !this.answered.has(id) && this.pending.some((c) => c.id === id);
    }
    return message.role === "user" && !this.userTexts.has(JSON.stringify(message.content));
  }

  private addToolResult(observation: Observation, attributes: Record<string, unknown>, line: number, field: string): void {
    const name = str(attributes["gen_ai.tool.name"]) ?? observation.name ?? "tool";
    const id = str(attributes["gen_ai.tool.call.id"]);
    let index = id ? this.pending.findIndex((c) => c.id === id) : -1;
    if (index < 0) index = this.pending.findIndex((c) => c.name === name);
    const call = index >= 0 ? this.pending.splice(index, 1)[0] : undefined;
    if (!call) this.issues.warn(line, `tool observation "${name}" answers no earlier tool call; kept as an orphan result`, field);
    const part = {
      type: "tool_result" as const,
      callId: call?.id ?? id ?? this.builder.nextSyntheticCallId(),
      name,
      content: toolOutputText(observation.output),
    };
    this.track(
      this.builder.add({
        role: "tool",
        parts: [part],
        source: { file: this.file, line },
        ...(observation.startTime ? { timestamp: observation.startTime } : {}),
      }),
    );
  }

  private addChat(raw: Record<string, unknown>, line: number, field: string, extra: Pick<Message, "model" | "usage">): void {
    if (raw.role === "user") this.userTexts.add(JSON.stringify(raw.content));
    const added = addOpenAiChatMessage(this.builder, raw, { file: this.file, line, field }, this.issues, extra);
    if (added) this.track(added);
  }

  private track(message: Message): void {
    for (const part of message.parts) {
      if (part.type === "tool_call") this.pending.push(part);
      if (part.type !== "tool_result") continue;
      this.answered.add(part.callId);
      const index = this.pending.findIndex((c) => c.id === part.callId);
      if (index >= 0) this.pending.splice(index, 1);
    }
  }
}

/** OTel-ingested observations keep their span attributes in `metadata.attributes` (metadata may be JSON text). */
function metadataAttributes(metadata: unknown): Record<string, unknown> {
  const value = typeof metadata === "string" ? tryJson(metadata) : metadata;
  return isRecord(value) && isRecord(value.attributes) ? value.attributes : {};
}

function usageOf(details: Record<string, number> | null | undefined): Usage | undefined {
  if (!details) return undefined;
  const usage: Usage = {};
  const input = num(details.input);
  const output = num(details.output);
  const cached = num(details["prompt_details.cache_read"]) ?? num(details.cache_read_input_tokens);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cached) usage.cachedInputTokens = cached;
  return Object.keys(usage).length ? usage : undefined;
}
