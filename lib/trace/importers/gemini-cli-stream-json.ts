import { z } from "zod";
import { IssueList, type Importer } from "../importer";
import { asText, isRecord, readJsonLines } from "../json-lines";
import type { Message, ParseResult, Part, SourceRecord, Usage } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { reportZodIssues } from "../zod-issues";

/**
 * Gemini CLI headless output, `gemini -p … --output-format stream-json`: one JSON event per line,
 * each with `type` and `timestamp` — `init{session_id, model}`, `message{role: user | assistant,
 * content, delta?}`, `tool_use{tool_name, tool_id, parameters}`, `tool_result{tool_id, status,
 * output?, error{type, message}?}`, `error{severity, message}`, `result{status, error?, stats}`.
 * No sample of this output was available: the importer follows the published schema
 * (geminicli.com/docs/cli/headless and `JsonStreamEvent` in gemini-cli's
 * packages/core/src/output/types.ts) and is tested on hand-written streams.
 *
 * Assistant chunks (`delta: true`) are joined into one text part; the tool calls that follow join
 * the same assistant message (one model turn), and consecutive results make one tool message (the
 * CLI returns a turn's results together). A message made from several lines lists them in
 * `records`. `error` events are warnings to the user, not conversation, and are skipped; `result`
 * gives the session's usage (`stats.input_tokens`, `output_tokens`, `cached`).
 */
export const geminiCliStreamJsonImporter: Importer = {
  format: "gemini_cli_stream_json",
  label: "Gemini CLI stream-json output",
  detect: detectStreamJson,
  parse: parseStreamJson,
};

const timestamp = z.string().nullish();
const EventSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("init"), timestamp, session_id: z.string().nullish(), model: z.string().nullish() }),
  z.looseObject({ type: z.literal("message"), timestamp, role: z.enum(["user", "assistant"]), content: z.string(), delta: z.boolean().nullish() }),
  z.looseObject({ type: z.literal("tool_use"), timestamp, tool_name: z.string().min(1), tool_id: z.string().min(1), parameters: z.unknown().optional() }),
  z.looseObject({
    type: z.literal("tool_result"),
    timestamp,
    tool_id: z.string().min(1),
    status: z.string(),
    output: z.string().nullish(),
    error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }).nullish(),
  }),
  z.looseObject({ type: z.literal("error"), timestamp, severity: z.string().nullish(), message: z.string().nullish() }),
  z.looseObject({
    type: z.literal("result"),
    timestamp,
    status: z.string().nullish(),
    stats: z.looseObject({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish(), cached: z.number().nullish() }).nullish(),
  }),
]);
type StreamEvent = z.infer<typeof EventSchema>;
const EVENT_TYPES = ["init", "message", "tool_use", "tool_result", "error", "result"];

/** The first line is an `init` event with a session id, or the head has tool events with Gemini's field names. */
function detectStreamJson(_name: string, head: string): number {
  const lines = head
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const first = tryParse(lines[0] ?? "");
  if (isRecord(first) && first.type === "init" && typeof first.session_id === "string") return 0.95;
  const events = lines.slice(0, 50).map(tryParse).filter(isRecord);
  const gemini = events.filter((e) => (e.type === "tool_use" && "tool_id" in e && "tool_name" in e) || (e.type === "tool_result" && "tool_id" in e));
  return gemini.length > 0 && events.every((e) => EVENT_TYPES.includes(String(e.type))) ? 0.7 : 0;
}

/** A message being assembled from several events, with the lines its parts came from. */
interface Draft {
  role: "assistant" | "tool";
  parts: Part[];
  records: SourceRecord[];
  timestamp?: string;
}

async function parseStreamJson(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  let sessionId: string | undefined;
  let model: string | undefined;
  let usage: Usage | undefined;
  let builder: SessionBuilder | undefined;
  let draft: Draft | undefined;
  const unknown = new Set<string>();
  const session = () => (builder ??= new SessionBuilder(sessionId ?? stem(source.name), "gemini_cli_stream_json"));
  const flush = () => {
    if (!draft) return;
    const [first] = draft.records;
    const message: Omit<Message, "index"> = {
      role: draft.role,
      parts: draft.parts,
      source: { file: source.name, line: first!.line },
      ...(draft.records.length > 1 ? { records: draft.records } : {}),
      ...(draft.timestamp ? { timestamp: draft.timestamp } : {}),
      ...(draft.role === "assistant" && model ? { model } : {}),
    };
    session().add(message);
    draft = undefined;
  };
  const open = (role: Draft["role"], event: StreamEvent): Draft => {
    if (draft?.role !== role) flush();
    draft ??= { role, parts: [], records: [], ...(event.timestamp ? { timestamp: event.timestamp } : {}) };
    return draft;
  };
  for await (const { line, value } of readJsonLines(source, issues)) {
    const parsed = EventSchema.safeParse(value);
    if (!parsed.success) {
      const type = isRecord(value) ? value.type : undefined;
      if (typeof type === "string" && !EVENT_TYPES.includes(type)) {
        if (!unknown.has(type)) issues.warn(line, `unknown event type ${JSON.stringify(type)} skipped (later ones silently)`, "type");
        unknown.add(type);
      } else reportZodIssues(issues, parsed.error, { field: "", lineOf: () => line }, "event skipped");
      continue;
    }
    const event = parsed.data;
    if (event.type === "init") {
      sessionId ??= event.session_id ?? undefined;
      model = event.model ?? model;
      session().noteModel(model);
    } else if (event.type === "message" && event.role === "user") {
      flush();
      session().add({
        role: "user",
        parts: [{ type: "text", text: event.content }],
        source: { file: source.name, line },
        ...(event.timestamp ? { timestamp: event.timestamp } : {}),
      });
    } else if (event.type === "message") {
      const target = open("assistant", event);
      if (target.parts.some((p) => p.type === "tool_call")) {
        flush();
        appendText(open("assistant", event), event.content, line, event.delta === true);
      } else appendText(target, event.content, line, event.delta === true);
    } else if (event.type === "tool_use") {
      addPart(open("assistant", event), { type: "tool_call", id: event.tool_id, name: event.tool_name, arguments: asText(event.parameters ?? {}) }, line);
    } else if (event.type === "tool_result") {
      const failed = event.status !== "success" || Boolean(event.error);
      const content = event.output ?? event.error?.message ?? "";
      addPart(open("tool", event), { type: "tool_result", callId: event.tool_id, content, ...(failed ? { isError: true } : {}) }, line);
    } else if (event.type === "result") {
      usage = usageOf(event.stats);
    }
  }
  flush();
  if (!builder || builder.messageCount === 0) {
    issues.warn(1, "no message or tool events: the stream holds no conversation");
    return { format: "gemini_cli_stream_json", sessions: [], issues: issues.items };
  }
  return { format: "gemini_cli_stream_json", sessions: [builder.build(usage ? { usage } : {})], issues: issues.items };
}

/** Streamed chunks extend the text part they continue; a whole message starts a new one. */
function appendText(draft: Draft, text: string, line: number, delta: boolean): void {
  const last = draft.parts.at(-1);
  if (delta && last?.type === "text") last.text += text;
  else addPart(draft, { type: "text", text }, line);
}

function addPart(draft: Draft, part: Part, line: number): void {
  draft.parts.push(part);
  const last = draft.records.at(-1);
  if (last?.line === line) last.parts += 1;
  else draft.records.push({ line, parts: 1 });
}

function usageOf(stats: Extract<StreamEvent, { type: "result" }>["stats"]): Usage | undefined {
  if (!stats) return undefined;
  const usage: Usage = {};
  if (typeof stats.input_tokens === "number") usage.inputTokens = stats.input_tokens;
  if (typeof stats.output_tokens === "number") usage.outputTokens = stats.output_tokens;
  if (typeof stats.cached === "number") usage.cachedInputTokens = stats.cached;
  return Object.keys(usage).length ? usage : undefined;
}

function stem(file: string): string {
  return (file.replace(/\\/g, "/").split("/").pop() ?? file).replace(/\.(jsonl|ndjson|json)$/i, "") || "stream";
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
