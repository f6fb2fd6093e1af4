import { IssueList, type Importer } from "../importer";
import { asText, isRecord, num, readJsonLines, str } from "../json-lines";
import type { Message, ParseResult, Part, Role, Session, Usage } from "../model";
import { SessionBuilder, at } from "../session-builder";
import type { TraceSource } from "../source";
import { dataUrlInfo, describe, idFromName, mapRole, messageParts, outputOf, reasoningText, textOf, titleFrom, usageOf } from "./codex-rollout-items";

/**
 * OpenAI Codex CLI/Desktop rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`,
 * FORMATS.md §8): every line is `{timestamp, type, payload}`.
 *
 * Conventions:
 * - one `response_item` is one message, as Codex records them: the reasoning, the text and each
 *   tool call of one model turn are separate messages (like Claude Code's split records), so each
 *   keeps its own line. Reasoning items with no readable text (only `encrypted_content`) are skipped;
 * - `developer` messages become `system`; tool outputs become `tool` messages linked by `call_id`;
 *   `session_meta.base_instructions` (newer CLIs record the system prompt there) opens the session as
 *   a `system` message (`meta.baseInstructions`);
 * - `web_search_call` (a hosted tool: OpenAI runs the search, the rollout has no output) is a
 *   `web_search` tool call with the search action as arguments and no result, its id the `call_id`
 *   of the `web_search_end` event written just before it;
 * - `event_msg` lines are UI events: `agent_message` duplicates response items and is ignored;
 *   `user_message` too, unless no user response item carries its text (the lean rollouts of Codex
 *   Desktop record the user's turns only as events): then it is the user message, in its place;
 *   `token_count` puts `last_token_usage` on the latest assistant message (the model call it
 *   reports on) and its `total_token_usage` becomes the session's usage;
 * - `compacted` becomes a `codex_compacted` compaction whose summary is `payload.message`; its
 *   `preTokens` is the context size reported by the last `token_count` before it (Codex compacts on
 *   that number), when there was one. `replacement_history` is not replayed as messages.
 */
export const codexRolloutImporter: Importer = {
  format: "codex_rollout_jsonl",
  label: "Codex rollout (JSONL)",
  detect: detectCodexRollout,
  parse: parseCodexRollout,
};

const LINE_TYPES = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);
/** Response items that carry nothing for the conversation (workspace snapshots). */
const SILENT_ITEMS = new Set(["ghost_snapshot"]);

async function parseCodexRollout(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const reader = new RolloutReader(source.name, issues);
  for await (const { line, value } of readJsonLines(source, issues)) reader.accept(value, line);
  return { format: "codex_rollout_jsonl", sessions: reader.finish(), issues: issues.items };
}

/** One rollout line's envelope, after validation. */
interface Envelope {
  line: number;
  timestamp?: string;
  payload: Record<string, unknown>;
}

class RolloutReader {
  private builder: SessionBuilder | undefined;
  private sessionId: string | undefined;
  private model: string | undefined;
  private title: string | undefined;
  private lastAssistant: Message | undefined;
  private sessionUsage: Usage | undefined;
  /** Tokens in context at the last `token_count`, the number Codex's auto-compaction compares. */
  private contextTokens: number | undefined;
  private readonly sessionMeta: Record<string, string> = {};
  private readonly warned = new Set<string>();
  /** Text of the user response item just added (cleared by any other item), to recognise its event echo. */
  private lastUserText: string | undefined;
  /** A `user_message` event not (yet) matched by a user response item. */
  private pendingUser: (Envelope & { text: string }) | undefined;
  /** `call_id` of the `web_search_end` event that precedes its `web_search_call` item. */
  private webSearchId: string | undefined;

  constructor(
    private readonly file: string,
    private readonly issues: IssueList,
  ) {}

  accept(value: unknown, line: number): void {
    if (!isRecord(value)) {
      this.issues.error(line, `line is ${describe(value)}, not an object`, undefined, "{timestamp, type, payload}");
      return;
    }
    const type = str(value.type);
    if (type === undefined || !LINE_TYPES.has(type)) {
      if (type === undefined) this.issues.error(line, "line has no string type", "type", [...LINE_TYPES].join(" | "));
      else this.warnOnce(`type:${type}`, line, `unknown line type ${JSON.stringify(type)} skipped`, "type");
      return;
    }
    if (!isRecord(value.payload)) {
      this.issues.error(line, `${type} line without a payload object`, "payload", "an object");
      return;
    }
    const envelope: Envelope = { line, payload: value.payload, ...(str(value.timestamp) ? { timestamp: str(value.timestamp) } : {}) };
    if (type === "session_meta") this.acceptSessionMeta(envelope);
    else if (type === "turn_context") this.acceptTurnContext(envelope.payload);
    else if (type === "response_item") this.acceptItem(envelope);
    else if (type === "event_msg") this.acceptEvent(envelope);
    else this.acceptCompacted(envelope);
  }

  finish(): Session[] {
    this.flushPendingUser();
    if (!this.builder) {
      this.issues.warn(1, "no response items: the file holds no conversation");
      return [];
    }
    const meta = this.sessionMeta;
    return [
      this.builder.build({
        ...(this.title ? { title: this.title } : {}),
        ...(this.sessionUsage ? { usage: this.sessionUsage } : {}),
        ...(Object.keys(meta).length ? { meta } : {}),
      }),
    ];
  }

  private session(): SessionBuilder {
    this.builder ??= new SessionBuilder(this.sessionId ?? idFromName(this.file), "codex_rollout_jsonl");
    return this.builder;
  }

  private acceptSessionMeta({ line, timestamp, payload }: Envelope): void {
    this.sessionId ??= str(payload.id);
    const instructions = isRecord(payload.base_instructions) ? str(payload.base_instructions.text) : str(payload.base_instructions);
    if (instructions && !this.builder) {
      this.session().add({
        role: "system",
        parts: [{ type: "text", text: instructions }],
        source: at(this.file, line),
        ...(timestamp ? { timestamp } : {}),
        meta: { baseInstructions: true },
      });
    }
    for (const [key, field] of [
      ["cwd", "cwd"],
      ["cliVersion", "cli_version"],
      ["originator", "originator"],
      ["modelProvider", "model_provider"],
      ["source", "source"],
    ] as const) {
      const value = str(payload[field]);
      if (value && !(key in this.sessionMeta)) this.sessionMeta[key] = value;
    }
  }

  /** The model named by the latest turn context applies to the assistant items that follow. */
  private acceptTurnContext(payload: Record<string, unknown>): void {
    this.model = str(payload.model) ?? this.model;
    this.builder?.noteModel(str(payload.model));
  }

  private acceptItem({ line, timestamp, payload }: Envelope): void {
    const kind = str(payload.type);
    const mapped = kind ? this.itemMessage(kind, payload, line) : undefined;
    if (!kind) this.issues.error(line, "response item without a type", "payload.type", "message | reasoning | function_call | function_call_output | …");
    if (!mapped) return;
    const userText = mapped.role === "user" ? textOf(mapped.parts) : undefined;
    if (this.pendingUser && userText?.includes(this.pendingUser.text)) this.pendingUser = undefined;
    this.flushPendingUser();
    this.lastUserText = userText;
    this.addMapped(mapped, line, timestamp);
  }

  private addMapped(mapped: { role: Role; parts: Part[] }, line: number, timestamp: string | undefined): void {
    const isAssistant = mapped.role === "assistant";
    const added = this.session().add({
      ...mapped,
      source: at(this.file, line),
      ...(timestamp ? { timestamp } : {}),
      ...(isAssistant && this.model ? { model: this.model } : {}),
    });
    if (isAssistant) this.lastAssistant = added;
    if (mapped.role === "user" && !this.title) this.title = titleFrom(mapped.parts);
  }

  /** The role and parts of one response item, or undefined when it is not a message. */
  private itemMessage(kind: string, payload: Record<string, unknown>, line: number): { role: Role; parts: Part[] } | undefined {
    switch (kind) {
      case "message":
        return this.messageItem(payload, line);
      case "reasoning": {
        const text = reasoningText(payload);
        return text ? { role: "assistant", parts: [{ type: "reasoning", text }] } : undefined;
      }
      case "function_call":
      case "custom_tool_call":
      case "local_shell_call":
        return this.callItem(kind, payload, line);
      case "function_call_output":
      case "custom_tool_call_output":
        return this.outputItem(payload, line);
      case "web_search_call": {
        const id = str(payload.id) ?? this.webSearchId ?? this.session().nextSyntheticCallId();
        this.webSearchId = undefined;
        return { role: "assistant", parts: [{ type: "tool_call", id, name: "web_search", arguments: asText(payload.action ?? {}) }] };
      }
      default:
        if (!SILENT_ITEMS.has(kind)) this.warnOnce(`item:${kind}`, line, `unknown response item type ${JSON.stringify(kind)} skipped`, "payload.type");
        return undefined;
    }
  }

  private messageItem(payload: Record<string, unknown>, line: number): { role: Role; parts: Part[] } | undefined {
    const role = mapRole(str(payload.role));
    if (!role) {
      this.issues.error(line, `unknown message role ${JSON.stringify(payload.role)}`, "payload.role", "developer | system | user | assistant");
      return undefined;
    }
    return { role, parts: messageParts(payload.content, line, this.issues) };
  }

  private callItem(kind: string, payload: Record<string, unknown>, line: number): { role: Role; parts: Part[] } | undefined {
    const name = kind === "local_shell_call" ? "local_shell" : str(payload.name);
    if (!name) {
      this.issues.error(line, `${kind} without a name`, "payload.name", "the tool name");
      return undefined;
    }
    let id = str(payload.call_id) ?? str(payload.id);
    if (!id) {
      id = this.session().nextSyntheticCallId();
      this.issues.warn(line, `${kind} without call_id: its output cannot be linked (using ${id})`, "payload.call_id");
    }
    const raw = kind === "function_call" ? payload.arguments : kind === "custom_tool_call" ? payload.input : payload.action;
    return { role: "assistant", parts: [{ type: "tool_call", id, name, arguments: asText(raw) }] };
  }

  private outputItem(payload: Record<string, unknown>, line: number): { role: Role; parts: Part[] } | undefined {
    const callId = str(payload.call_id);
    if (!callId) {
      this.issues.error(line, "tool output without call_id", "payload.call_id", "the call_id of the call it answers");
      return undefined;
    }
    const { content, isError } = outputOf(payload.output);
    return { role: "tool", parts: [{ type: "tool_result", callId, content, ...(isError !== undefined ? { isError } : {}) }] };
  }

  /** `token_count` usage; `user_message` when no response item has it; the id of a web search. */
  private acceptEvent(envelope: Envelope): void {
    const { payload } = envelope;
    if (payload.type === "user_message") return this.acceptUserEvent(envelope);
    if (payload.type === "web_search_end") this.webSearchId = str(payload.call_id);
    if (payload.type !== "token_count" || !isRecord(payload.info)) return;
    const last = usageOf(payload.info.last_token_usage);
    const total = usageOf(payload.info.total_token_usage);
    if (total) this.sessionUsage = total;
    if (isRecord(payload.info.last_token_usage)) this.contextTokens = num(payload.info.last_token_usage.total_tokens) ?? this.contextTokens;
    // Once per model call: a repeated token_count must not move usage onto an older message.
    if (last && this.lastAssistant) this.lastAssistant.usage = last;
    this.lastAssistant = undefined;
  }

  /** The echo of the user item just written is dropped; any other text waits for the next item. */
  private acceptUserEvent(envelope: Envelope): void {
    const text = str(envelope.payload.message)?.trim();
    if (!text || this.lastUserText?.includes(text)) return;
    this.flushPendingUser();
    this.pendingUser = { ...envelope, text };
  }

  private flushPendingUser(): void {
    const pending = this.pendingUser;
    if (!pending) return;
    this.pendingUser = undefined;
    const images = Array.isArray(pending.payload.images) ? pending.payload.images.filter((i): i is string => typeof i === "string") : [];
    const parts: Part[] = [
      { type: "text", text: str(pending.payload.message) ?? pending.text },
      ...images.map((url): Part => ({ type: "image", ...dataUrlInfo(url) })),
    ];
    this.addMapped({ role: "user", parts }, pending.line, pending.timestamp);
  }

  private acceptCompacted({ line, timestamp, payload }: Envelope): void {
    this.flushPendingUser();
    const summary = str(payload.message);
    if (summary === undefined) this.issues.warn(line, "compacted line without a message: summary unknown", "payload.message");
    this.session().addCompaction({
      kind: "codex_compacted",
      source: at(this.file, line),
      ...(summary ? { summary } : {}),
      ...(timestamp ? { timestamp } : {}),
      ...(this.contextTokens !== undefined ? { preTokens: this.contextTokens } : {}),
    });
  }

  private warnOnce(key: string, line: number, message: string, field: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.issues.warn(line, `${message} (later ones are skipped silently)`, field);
  }
}

/**
 * High confidence when the head's complete lines are `{timestamp, type, payload}` envelopes with
 * Codex line types; a `rollout-*.jsonl` name alone is weak evidence (0.4) when the first line is
 * longer than the head.
 */
export function detectCodexRollout(name: string, head: string): number {
  const lines = head
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  let codexLike = 0;
  let foreign = 0;
  lines.slice(0, 100).forEach((text, i) => {
    const value = tryParse(text);
    if (value === undefined && i === lines.length - 1) return; // cut by the head limit
    if (isRecord(value) && typeof value.type === "string" && LINE_TYPES.has(value.type) && isRecord(value.payload) && "timestamp" in value) codexLike += 1;
    else foreign += 1;
  });
  if (codexLike > 0) return foreign === 0 ? 0.95 : 0.5;
  const nameLooksLikeRollout = /(?:^|[\\/])rollout-[^\\/]*\.jsonl$/i.test(name);
  return nameLooksLikeRollout && foreign === 0 && /^\s*\{"timestamp"/.test(head) ? 0.4 : 0;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
