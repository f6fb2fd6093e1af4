import { IssueList, type Importer } from "../importer";
import { asText, hasJsonKey, isRecord, jsonKind, num, readLocatedJsonDocument, str, type LocatedJson } from "../json-lines";
import type { Message, ParseResult, Part, Role, Session, SourceRef } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { openAiUsage } from "./openai-messages";

/**
 * OpenHands trajectory: a JSON array of events `{id, timestamp, source, message, action | observation,
 * args | content + extras, cause?, tool_call_metadata?}`, one session per file.
 *
 * Only what the agent's LLM saw becomes a message: `message` actions are user/assistant text, other
 * agent actions are an assistant message (thought text + one tool call) and observations with a
 * `cause` are the tool results of that action. UI bookkeeping (`agent_state_changed`,
 * `change_agent_state`, `null` observations) is not a message. Timestamps are kept as written (ISO
 * without a zone: OpenHands records local time).
 */
export const openhandsImporter: Importer = {
  format: "openhands_events",
  label: "OpenHands event stream",
  detect: detectOpenHands,
  parse: parseOpenHands,
};

const EVENT_SHAPE = "{id, timestamp, source, action | observation, args | content, cause?}";
/** Events that never reach the LLM: agent-state bookkeeping and the controller's own actions. */
const SKIPPED_ACTIONS = new Set(["change_agent_state", "null", "pause", "resume", "stop", "recall", "condensation_request"]);
const SKIPPED_OBSERVATIONS = new Set(["agent_state_changed", "null"]);

/** An array of events with `source` agent/user/environment and `action`/`observation` keys. */
function detectOpenHands(_name: string, head: string): number {
  if (!/^\uFEFF?\s*\[\s*\{/.test(head) || hasJsonKey(head, "task_id")) return 0;
  if (!/(?<!\\)"source"\s*:\s*"(?:agent|user|environment)"/.test(head)) return 0;
  if (!hasJsonKey(head, "action") && !hasJsonKey(head, "observation")) return 0;
  let score = 0.7;
  if (hasJsonKey(head, "timestamp")) score += 0.1;
  if (hasJsonKey(head, "cause") || hasJsonKey(head, "tool_call_metadata") || hasJsonKey(head, "extras")) score += 0.1;
  return score;
}

interface EventContext {
  builder: SessionBuilder;
  issues: IssueList;
  /** Call id of every action turned into a tool call, by event id, for the observations' `cause`. */
  callsByEvent: Map<number, string>;
  /** LLM responses whose usage is already counted: one response can yield several actions. */
  countedResponses: Set<string>;
}

type Where = { source: SourceRef; field: string };

async function parseOpenHands(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  // Depth 1 locates each event.
  const doc = await readLocatedJsonDocument(source, issues, 1);
  const session = doc ? parseEvents(doc, source.name, issues) : undefined;
  return { format: "openhands_events", sessions: session ? [session] : [], issues: issues.items };
}

function parseEvents(doc: LocatedJson, file: string, issues: IssueList): Session | undefined {
  if (!Array.isArray(doc.value)) {
    issues.error(doc.lineOf(""), `expected a JSON array of events, found ${jsonKind(doc.value)}`, undefined, `[${EVENT_SHAPE}, …]`);
    return undefined;
  }
  const builder = new SessionBuilder(fileStem(file), "openhands_events");
  const context: EventContext = { builder, issues, callsByEvent: new Map(), countedResponses: new Set() };
  doc.value.forEach((event, i) => {
    const field = `[${i}]`;
    addEvent(event, { source: { file, line: doc.lineOf(field) }, field }, context);
  });
  return builder.build();
}

function addEvent(raw: unknown, where: Where, context: EventContext): void {
  if (!isRecord(raw)) {
    context.issues.error(where.source.line, `event is ${jsonKind(raw)}, not an object`, where.field, EVENT_SHAPE);
    return;
  }
  const action = str(raw.action);
  const observation = str(raw.observation);
  if (action !== undefined) addAction(raw, action, where, context);
  else if (observation !== undefined) addObservation(raw, observation, where, context);
  else context.issues.error(where.source.line, "event has neither action nor observation; skipped", `${where.field}.action`, "action | observation");
}

function addAction(raw: Record<string, unknown>, action: string, where: Where, context: EventContext): void {
  if (SKIPPED_ACTIONS.has(action)) return;
  const args = isRecord(raw.args) ? raw.args : {};
  const fields = { source: where.source, ...llmFields(raw, context), meta: eventMeta(raw, { action }) };
  if (action === "condensation") {
    // Newer OpenHands condenses its own history; keep it as the native compaction it is.
    const summary = str(args.summary);
    context.builder.addCompaction({ kind: "other", source: where.source, ...(summary ? { summary } : {}), ...timestampOf(raw) });
  } else if (action === "message" || action === "system") {
    const text = str(args.content) ?? str(raw.message);
    if (text === undefined) context.issues.warn(where.source.line, "message event without args.content", `${where.field}.args.content`);
    const role: Role = action === "system" ? "system" : raw.source === "agent" ? "assistant" : "user";
    context.builder.add({ role, parts: [...textParts(text), ...imageParts(args.image_urls)], ...fields });
  } else if (action === "finish") {
    // The final answer; it has no observation, so it reads as assistant text rather than a call.
    const text = [args.final_thought, args.thought, raw.message].map(str).find((t) => t?.trim());
    context.builder.add({ role: "assistant", parts: textParts(text), ...fields });
  } else {
    addToolCall(raw, action, args, fields, context);
  }
}

/**
 * A tool action. Arguments are the ones the model emitted (from the raw response in
 * `tool_call_metadata`), because OpenHands rewrites `args` (an `edit` keeps `content: ""` while the
 * model sent the whole `file_text`); without a response, `args` minus `thought` stand in.
 */
function addToolCall(
  raw: Record<string, unknown>,
  action: string,
  args: Record<string, unknown>,
  fields: Omit<Message, "index" | "role" | "parts">,
  context: EventContext,
): void {
  const metadata = isRecord(raw.tool_call_metadata) ? raw.tool_call_metadata : {};
  const id = str(metadata.tool_call_id) ?? context.builder.nextSyntheticCallId();
  const { thought, ...rest } = args;
  const call: Part = {
    type: "tool_call",
    id,
    name: str(metadata.function_name) ?? action,
    arguments: emittedArguments(metadata.model_response, id) ?? JSON.stringify(rest),
  };
  context.builder.add({ role: "assistant", parts: [...textParts(str(thought)), call], ...fields });
  const eventId = num(raw.id);
  if (eventId !== undefined) context.callsByEvent.set(eventId, id);
}

function emittedArguments(response: unknown, callId: string): string | undefined {
  if (!isRecord(response) || !Array.isArray(response.choices)) return undefined;
  for (const choice of response.choices) {
    const message = isRecord(choice) && isRecord(choice.message) ? choice.message : {};
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    const call = calls.find((c) => isRecord(c) && c.id === callId);
    if (isRecord(call) && isRecord(call.function)) return asText(call.function.arguments);
  }
  return undefined;
}

/**
 * An observation caused by a tool action is that call's result; one caused by anything else (an
 * error after a user message, recalled workspace context) is shown to the LLM as user text.
 */
function addObservation(raw: Record<string, unknown>, observation: string, where: Where, context: EventContext): void {
  if (SKIPPED_OBSERVATIONS.has(observation)) return;
  const cause = num(raw.cause);
  const metadata = isRecord(raw.tool_call_metadata) ? raw.tool_call_metadata : {};
  const callId = (cause !== undefined ? context.callsByEvent.get(cause) : undefined) ?? str(metadata.tool_call_id);
  const exitCode = exitCodeOf(raw);
  const content = observationText(raw, exitCode);
  const fields = { source: where.source, ...timestampOf(raw), meta: eventMeta(raw, { observation, ...(exitCode !== undefined ? { exitCode } : {}) }) };
  if (callId === undefined) {
    context.builder.add({ role: "user", parts: textParts(content), ...fields });
    return;
  }
  const isError = observation === "error" || (exitCode !== undefined && exitCode !== 0);
  context.builder.add({ role: "tool", parts: [{ type: "tool_result", callId, content, ...(isError ? { isError } : {}) }], ...fields });
}

function exitCodeOf(raw: Record<string, unknown>): number | undefined {
  const extras = isRecord(raw.extras) ? raw.extras : {};
  const metadata = isRecord(extras.metadata) ? extras.metadata : {};
  return num(metadata.exit_code) ?? num(extras.exit_code);
}

/**
 * The text the LLM was shown: command output is wrapped in `extras.metadata.prefix/suffix` (the
 * suffix states the exit code); older events only have `extras.exit_code`, appended as a line.
 */
function observationText(raw: Record<string, unknown>, exitCode: number | undefined): string {
  const content = asText(raw.content);
  const extras = isRecord(raw.extras) ? raw.extras : {};
  const metadata = isRecord(extras.metadata) ? extras.metadata : {};
  const prefix = str(metadata.prefix) ?? "";
  const suffix = str(metadata.suffix);
  if (prefix || suffix !== undefined) return `${prefix}${content}${suffix ?? ""}`;
  if (exitCode !== undefined) return `${content}${content ? "\n" : ""}[exit code ${exitCode}]`;
  return content;
}

/** Timestamp, model and usage of an action from the raw LLM response in `tool_call_metadata`. */
function llmFields(raw: Record<string, unknown>, context: EventContext): Partial<Pick<Message, "timestamp" | "model" | "usage">> {
  const fields: Partial<Pick<Message, "timestamp" | "model" | "usage">> = timestampOf(raw);
  const metadata = isRecord(raw.tool_call_metadata) ? raw.tool_call_metadata : {};
  const response = isRecord(metadata.model_response) ? metadata.model_response : undefined;
  if (!response) return fields;
  const model = str(response.model);
  if (model) fields.model = model;
  const responseId = str(response.id);
  if (responseId && context.countedResponses.has(responseId)) return fields;
  if (responseId) context.countedResponses.add(responseId);
  const usage = openAiUsage(response.usage);
  if (usage) fields.usage = usage;
  return fields;
}

function timestampOf(raw: Record<string, unknown>): { timestamp?: string } {
  const timestamp = str(raw.timestamp);
  return timestamp ? { timestamp } : {};
}

function eventMeta(raw: Record<string, unknown>, extra: Record<string, string | number>): Record<string, string | number> {
  const eventId = num(raw.id);
  return { ...(eventId !== undefined ? { eventId } : {}), ...extra };
}

function textParts(text: string | undefined): Part[] {
  return text?.trim() ? [{ type: "text", text }] : [];
}

function imageParts(urls: unknown): Part[] {
  return Array.isArray(urls) ? urls.map((): Part => ({ type: "image" })) : [];
}

function fileStem(name: string): string {
  return (name.split(/[\\/]/).pop() ?? name).replace(/\.json$/i, "");
}
