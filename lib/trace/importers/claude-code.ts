import { IssueList, type Importer } from "../importer";
import { isRecord, num, readJsonLines, str } from "../json-lines";
import type { Message, NativeCompaction, ParseResult, Part, Role, Session, Usage } from "../model";
import { SessionBuilder, at } from "../session-builder";
import type { TraceSource } from "../source";
import { ResponseAssembler, type MessageDraft } from "./claude-code-responses";
import { contentParts, describe } from "./claude-code-blocks";
import { detectClaudeCode, RECORD_TYPES } from "./claude-code-detect";
import { InlineSidechains, SubagentLinks, type ThreadStart } from "./claude-code-sidechains";

/**
 * Claude Code session transcripts (`~/.claude/projects/<slug>/<sessionId>.jsonl`, FORMATS.md §1).
 *
 * Counting conventions (they reproduce the MANIFEST counts of every real file):
 * - one `user` record is one message; one API response is one message. Claude Code writes a response
 *   as one `assistant` record per content block, all sharing `message.id`, and writes the results
 *   of parallel tool calls as soon as each call ran, sometimes between two records of the response.
 *   Consecutive records of one `message.id` become one assistant message (meta `apiMessageId`,
 *   every record's line in `records`) followed by the tool results, in file order (see
 *   `ResponseAssembler`). The response's usage is kept once, from its last record. The MANIFEST's
 *   `messages` column counts records: `records` of the session stats reproduces it;
 * - a `user` record carrying `tool_result` blocks becomes a `tool` message. If it also carries text
 *   (an interruption note, a hook message) the text parts stay in that same message, in order:
 *   splitting would break "one record, one message, one source line";
 * - sidechain records written inline by older CLIs (1.0.x) are a subagent's conversation, not the
 *   main one: each thread of them (followed through `parentUuid`) is a session of its own, id
 *   `<sessionId>:sidechain-<root uuid>`, `parentId` the main session's id, `meta.parentCallId` the
 *   Task call that started it (see `InlineSidechains`); its messages keep `meta.sidechain`. Subagent
 *   files (`<sessionId>/subagents/agent-<id>.jsonl`) are sessions of their own whose `parentId` is
 *   the main session's id. In the main session, the message holding a call that started a subagent
 *   carries `meta["subagent:<call id>"]`, the subagent session's id (see `SubagentLinks`);
 * - a `compact_boundary` system record becomes a `NativeCompaction`; the `isCompactSummary` user
 *   record after it supplies the summary and is also kept as a message (`meta.compactSummary`);
 * - `progress`, `file-history-snapshot`, `queue-operation`, `summary` and other `system` records
 *   are not messages and are skipped.
 */
export { base64Bytes } from "./claude-code-blocks";

export const claudeCodeImporter: Importer = {
  format: "claude_code_jsonl",
  label: "Claude Code session (JSONL)",
  detect: detectClaudeCode,
  parse: parseClaudeCode,
};

/** The model name Claude Code puts on locally generated assistant records (errors, "no response"). */
const SYNTHETIC_MODEL = "<synthetic>";

/** Streams the file once; everything it learns is kept in one `TranscriptReader`. */
async function parseClaudeCode(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const reader = new TranscriptReader(source.name, issues);
  for await (const { line, value } of readJsonLines(source, issues)) reader.accept(value, line);
  return { format: "claude_code_jsonl", sessions: reader.finish(), issues: issues.items };
}

/** A compact boundary waiting for its summary record (or for any other message to close it). */
type PendingBoundary = Omit<NativeCompaction, "beforeMessage">;

/** An inline sidechain thread read as a session of its own. */
interface InlineThread {
  id: string;
  parentId: string;
  meta: Record<string, string>;
}

class TranscriptReader {
  private builder: SessionBuilder | undefined;
  private sessionId: string | undefined;
  private agentId: string | undefined;
  private summaryTitle: string | undefined;
  private title: string | undefined;
  private pendingBoundary: PendingBoundary | undefined;
  private readonly sessionMeta: Record<string, string> = {};
  /** Last message of each API response (`message.id`), to keep that response's usage only once. */
  private readonly lastOfResponse = new Map<string, Message>();
  private readonly warnedTypes = new Set<string>();
  private readonly path: SubagentPath | undefined;
  private readonly responses = new ResponseAssembler((draft, apiMessageId) => this.addMessage(draft, apiMessageId));
  /** True when the file's first message is a sidechain record: the whole file is one subagent's. */
  private isSidechainFile = false;
  private readonly links = new SubagentLinks();
  private readonly sidechains = new InlineSidechains((start) => this.openThread(start));

  constructor(
    private readonly file: string,
    private readonly issues: IssueList,
    private readonly thread?: InlineThread,
  ) {
    this.path = thread ? undefined : subagentPath(file);
  }

  accept(value: unknown, line: number): void {
    if (!isRecord(value)) {
      this.issues.error(line, `record is ${describe(value)}, not an object`, undefined, 'a JSON object with a "type" field (user, assistant, system, …)');
      return;
    }
    if (value.isSidechain === true && this.isMainThread()) {
      this.sidechains.accept(value, line);
      return;
    }
    this.noteIdentity(value);
    if (!this.thread) this.noteLinks(value);
    const type = str(value.type);
    if (type === "user" || type === "assistant") this.acceptMessage(value, type, line);
    else if (type === "system") this.acceptSystem(value, line);
    else if (type === "summary") this.summaryTitle ??= str(value.summary);
    else if (type === undefined) this.issues.error(line, "record has no string type", "type", [...RECORD_TYPES].join(" | "));
    else if (!RECORD_TYPES.has(type) && !this.warnedTypes.has(type)) {
      this.warnedTypes.add(type);
      this.issues.warn(line, `unknown record type ${JSON.stringify(type)} skipped (later records of this type are skipped silently)`, "type");
    }
  }

  /** The main session (with its pointers to subagents), then each inline sidechain thread's. */
  finish(): Session[] {
    this.responses.flush();
    this.flushBoundary();
    if (!this.builder) {
      if (!this.thread) this.issues.warn(1, "no user or assistant records: the file holds no conversation");
      return [];
    }
    const parentId = this.thread?.parentId ?? this.path?.sessionId ?? (this.agentId ? this.sessionId : undefined);
    const meta = {
      ...this.sessionMeta,
      ...this.thread?.meta,
      ...(this.agentId ? { agentId: this.agentId } : {}),
      ...(this.summaryTitle ? { summaryTitle: this.summaryTitle } : {}),
    };
    const session = this.builder.build({
      ...(this.title ? { title: this.title } : {}),
      ...(parentId ? { parentId } : {}),
      ...(Object.keys(meta).length ? { meta } : {}),
    });
    this.pointToSubagents(session);
    return [session, ...this.sidechains.readers.flatMap((reader) => reader.finish())];
  }

  /**
   * Whether sidechain records go to threads of their own: only in a main transcript, once its
   * first message showed it is one (a subagent's own file is sidechain records throughout).
   */
  private isMainThread(): boolean {
    return !this.thread && !this.path && this.builder !== undefined && !this.isSidechainFile;
  }

  /** A reader for an inline sidechain thread, linked to the Task call whose prompt started it. */
  private openThread(start: ThreadStart): TranscriptReader {
    const parentId = this.session().id;
    const id = `${parentId}:sidechain-${start.rootUuid ?? start.ordinal}`;
    const callId = this.links.linkThread(start.prompt, id);
    return new TranscriptReader(this.file, this.issues, { id, parentId, meta: callId ? { parentCallId: callId } : {} });
  }

  /** Main-thread records that say which call started which subagent. */
  private noteLinks(record: Record<string, unknown>): void {
    if (record.type === "assistant") this.links.noteCalls(record.message);
    else if (record.type === "progress" || record.type === "user") this.links.noteAgentRecord(record, this.sessionId ?? this.path?.sessionId);
  }

  /** Marks each message holding a call that started a subagent: `meta["subagent:<call id>"]`. */
  private pointToSubagents(session: Session): void {
    for (const message of session.messages) {
      for (const part of message.parts) {
        if (part.type !== "tool_call") continue;
        const subagent = this.links.sessionOf(part.id);
        if (subagent) message.meta = { ...message.meta, [`subagent:${part.id}`]: subagent };
      }
    }
  }

  /** Session id and working context (cwd, branch, CLI version) come from whichever record has them first. */
  private noteIdentity(record: Record<string, unknown>): void {
    this.sessionId ??= str(record.sessionId);
    for (const [key, field] of [
      ["cwd", "cwd"],
      ["gitBranch", "gitBranch"],
      ["cliVersion", "version"],
    ] as const) {
      const value = str(record[field]);
      if (value && !(key in this.sessionMeta)) this.sessionMeta[key] = value;
    }
  }

  /**
   * The session, created at its first message: a file is a subagent transcript when its path says
   * so or when its first message is a sidechain record naming an agent (inline sidechains of older
   * CLIs carry no agent id, so a main file is never mistaken for one).
   */
  private session(first?: Record<string, unknown>): SessionBuilder {
    if (!this.builder) {
      this.isSidechainFile = !this.thread && first?.isSidechain === true;
      this.agentId = this.path?.agentId ?? (this.isSidechainFile ? str(first?.agentId) : undefined);
      const base = this.sessionId ?? this.path?.sessionId ?? fileStem(this.file);
      this.builder = new SessionBuilder(this.thread?.id ?? (this.agentId ? `${base}:agent-${this.agentId}` : base), "claude_code_jsonl");
    }
    return this.builder;
  }

  private acceptMessage(record: Record<string, unknown>, type: "user" | "assistant", line: number): void {
    const message = record.message;
    if (!isRecord(message)) {
      this.issues.error(line, `${type} record has no message object`, "message", "{role, content}");
      return;
    }
    const parts = contentParts(message.content, line, this.issues);
    if (!parts) return;
    this.session(record);
    const isSummary = record.isCompactSummary === true;
    const role: Role = type === "assistant" ? "assistant" : parts.some((p) => p.type === "tool_result") ? "tool" : "user";
    const rawModel = str(message.model);
    const model = rawModel === SYNTHETIC_MODEL ? undefined : rawModel;
    const usage = type === "assistant" ? usageOf(message.usage) : undefined;
    const apiMessageId = type === "assistant" ? str(message.id) : undefined;
    const meta = messageMeta(record, { apiMessageId, synthetic: rawModel === SYNTHETIC_MODEL });
    const timestamp = str(record.timestamp);
    const draft: MessageDraft = {
      role,
      parts,
      source: at(this.file, line),
      ...(timestamp ? { timestamp } : {}),
      ...(model ? { model } : {}),
      ...(usage ? { usage } : {}),
      ...(meta ? { meta } : {}),
    };
    if (!this.responses.absorb(draft, apiMessageId)) {
      this.responses.flush();
      this.flushBoundary(isSummary ? { text: textOf(parts), line } : undefined);
      this.responses.start(draft, apiMessageId);
    }
    const isInlineSidechain = record.isSidechain === true && !this.agentId && !this.thread;
    if (role === "user" && !this.title && !isSummary && record.isMeta !== true && !isInlineSidechain) this.title = titleFrom(textOf(parts));
  }

  private addMessage(draft: MessageDraft, apiMessageId: string | undefined): void {
    const added = this.session().add(draft);
    if (apiMessageId) this.keepUsageOnce(apiMessageId, added);
  }

  /**
   * A response's records are merged while they are consecutive; should its `message.id` come back
   * after another message, its usage moves to the latest message so the call is still counted once.
   */
  private keepUsageOnce(apiMessageId: string, added: Message): void {
    const previous = this.lastOfResponse.get(apiMessageId);
    if (previous?.usage) {
      if (!added.usage) added.usage = previous.usage;
      delete previous.usage;
    }
    this.lastOfResponse.set(apiMessageId, added);
  }

  private acceptSystem(record: Record<string, unknown>, line: number): void {
    if (record.subtype !== "compact_boundary") return;
    this.responses.flush();
    this.flushBoundary();
    const metadata = isRecord(record.compactMetadata) ? record.compactMetadata : undefined;
    if (!metadata) this.issues.warn(line, "compact_boundary without compactMetadata: trigger and preTokens unknown", "compactMetadata");
    const trigger = str(metadata?.trigger);
    const preTokens = num(metadata?.preTokens);
    const timestamp = str(record.timestamp);
    this.pendingBoundary = {
      kind: "claude_code_compact_boundary",
      source: at(this.file, line),
      ...(trigger ? { trigger } : {}),
      ...(preTokens !== undefined ? { preTokens } : {}),
      ...(timestamp ? { timestamp } : {}),
    };
  }

  /**
   * Records the pending boundary just before the next message. A summary record without a boundary
   * before it still marks a compaction (the harness carried that summary forward).
   */
  private flushBoundary(summary?: { text: string; line: number }): void {
    const boundary = this.pendingBoundary;
    this.pendingBoundary = undefined;
    if (!boundary && !summary) return;
    const compaction = boundary ?? { kind: "claude_code_compact_boundary" as const, source: at(this.file, summary!.line) };
    this.session().addCompaction({ ...compaction, ...(summary?.text ? { summary: summary.text } : {}) });
  }
}

function usageOf(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = {};
  const set = (key: keyof Usage, value: unknown) => {
    const n = num(value);
    if (n !== undefined) usage[key] = n;
  };
  set("inputTokens", raw.input_tokens);
  set("outputTokens", raw.output_tokens);
  set("cachedInputTokens", raw.cache_read_input_tokens);
  set("cacheWriteTokens", raw.cache_creation_input_tokens);
  return Object.keys(usage).length ? usage : undefined;
}

/** Format flags worth keeping on a message; undefined when there are none. */
function messageMeta(record: Record<string, unknown>, extra: { apiMessageId?: string; synthetic: boolean }): Message["meta"] {
  const meta: NonNullable<Message["meta"]> = {};
  if (record.isSidechain === true) meta.sidechain = true;
  if (record.isMeta === true) meta.meta = true;
  if (record.isCompactSummary === true) meta.compactSummary = true;
  if (record.isVisibleInTranscriptOnly === true) meta.transcriptOnly = true;
  if (record.isApiErrorMessage === true) meta.apiError = true;
  if (extra.synthetic) meta.synthetic = true;
  if (extra.apiMessageId) meta.apiMessageId = extra.apiMessageId;
  return Object.keys(meta).length ? meta : undefined;
}

function textOf(parts: Part[]): string {
  return parts
    .map((p) => (p.type === "text" ? p.text : ""))
    .filter(Boolean)
    .join("\n");
}

/**
 * A title from a user prompt: slash commands read as `/name args`; harness-injected text wrapped
 * in tags (`<local-command-stdout>`, `<system-reminder>`…) is not a title.
 */
function titleFrom(text: string): string | undefined {
  const command = /<command-name>([^<]*)<\/command-name>/.exec(text)?.[1]?.trim();
  if (command) return cut(`${command} ${/<command-args>([^<]*)<\/command-args>/.exec(text)?.[1]?.trim() ?? ""}`.trim());
  const trimmed = text.trim();
  if (!trimmed || trimmed.startsWith("<")) return undefined;
  return cut(trimmed.split("\n")[0] ?? "");
}

function cut(line: string): string {
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

interface SubagentPath {
  sessionId: string;
  agentId: string;
}

/** `<sessionId>/subagents/agent-<agentId>.jsonl` (either slash), when the name has that shape. */
function subagentPath(file: string): SubagentPath | undefined {
  const match = /(?:^|\/)([^/]+)\/subagents\/agent-([^/]+)\.jsonl$/i.exec(file.replace(/\\/g, "/"));
  return match ? { sessionId: match[1]!, agentId: match[2]! } : undefined;
}

function fileStem(file: string): string {
  const base = file.replace(/\\/g, "/").split("/").pop() ?? file;
  return base.replace(/\.jsonl?$/i, "") || "session";
}
