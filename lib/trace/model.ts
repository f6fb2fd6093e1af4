/**
 * The canonical trace model every importer produces and every other part of Tracefold reads.
 *
 * Why one model: policies, judges and the studio must not care whether a session came from
 * Claude Code, tau-bench or an OTel span dump. Importers map each format onto these types and
 * keep the source file and line of every message so an error or a label can always point back.
 *
 * Invariants (checked by `validateSession`):
 * - `messages[i].index === i` (dense, in conversation order);
 * - every `tool_result` part's `callId` names a `tool_call` part earlier in the session, unless the
 *   importer could not recover the call (then `orphan` is true on the part);
 * - `compactions[j].beforeMessage` is a valid insertion position (0..messages.length).
 */

/** Formats Tracefold can import. The ids are a public contract (`--format`, JSON output). */
export const FORMAT_IDS = [
  "claude_code_jsonl",
  "codex_rollout_jsonl",
  "tau_bench_traj",
  "tau2_simulation",
  "gemini_cli_chat",
  "gemini_api_contents",
  "gemini_cli_stream_json",
  "browser_use_history",
  "mini_swe_agent_traj",
  "swe_agent_traj",
  "openhands_events",
  "otel_genai_spans",
  "openinference_spans",
  "openllmetry_spans",
  "langfuse_trace",
  "inspect_eval_log",
  "aider_chat_md",
  "openai_chat",
  "openai_responses",
  "anthropic_messages",
  "tracefold_jsonl",
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export type Role = "system" | "user" | "assistant" | "tool";

export interface TextPart {
  type: "text";
  text: string;
}
export interface ReasoningPart {
  type: "reasoning";
  text: string;
}
export interface ToolCallPart {
  type: "tool_call";
  /** Provider call id; importers synthesise `call_<n>` when the format has none (aider, otel). */
  id: string;
  /** Tool name exactly as the trace wrote it (normalisation happens in lib/compaction/context). */
  name: string;
  /** Arguments as text (JSON where the format had JSON; the raw action string otherwise). */
  arguments: string;
}
export interface ToolResultPart {
  type: "tool_result";
  callId: string;
  /** Tool name when the format states it or it can be resolved from the call. */
  name?: string;
  content: string;
  isError?: boolean;
  /** True when no earlier tool_call carries `callId` (kept rather than dropped). */
  orphan?: boolean;
}
export interface ImagePart {
  type: "image";
  mediaType?: string;
  /** Size of the encoded payload in bytes, when known. The payload itself is not kept. */
  bytes?: number;
}
/** Anything else a format carries inside a message (documents, binary, unknown block types). */
export interface OtherPart {
  type: "other";
  kind: string;
  text?: string;
}
export type Part = TextPart | ReasoningPart | ToolCallPart | ToolResultPart | ImagePart | OtherPart;
export type PartType = Part["type"];

/** Provider-reported usage for the model call that produced a message (or the session). */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
}

export interface SourceRef {
  /** Path or name of the file as given to the importer. */
  file: string;
  /** 1-based line of the record in the file (1 for whole-document formats without lines). */
  line: number;
}

/**
 * One record of a line-based file that contributed to a message. Claude Code writes one API
 * response as several records (one per content block, sharing `message.id`); the importer merges
 * them into one message and keeps where each part came from.
 */
export interface SourceRecord {
  /** 1-based line of the record. */
  line: number;
  /** How many of the message's parts, in order after the previous records' parts, came from it. */
  parts: number;
}

export interface Message {
  index: number;
  role: Role;
  parts: Part[];
  /** The message's first record (the one a "source line" link points at). */
  source: SourceRef;
  /**
   * Every record the message was merged from, in file order, when there was more than one
   * (`records[0].line === source.line`; the `parts` counts add up to `parts.length`). Absent for
   * a message written as one record. See `lib/trace/source-records.ts` for the lookups.
   */
  records?: SourceRecord[];
  /** ISO-8601 timestamp, when the format has one. */
  timestamp?: string;
  model?: string;
  usage?: Usage;
  /** Format-specific flags worth keeping (sidechain, meta, compact summary, agent name…). */
  meta?: Record<string, string | number | boolean>;
}

export type CompactionKind = "claude_code_compact_boundary" | "codex_compacted" | "other";

/** A compaction the agent itself performed while the trace was recorded. */
export interface NativeCompaction {
  kind: CompactionKind;
  /** Insertion position: the compaction happened before `messages[beforeMessage]`. */
  beforeMessage: number;
  trigger?: string;
  preTokens?: number;
  /** Summary text the harness carried forward, when the trace has it. */
  summary?: string;
  timestamp?: string;
  source: SourceRef;
}

export interface Session {
  /** Stable within the file: derived from the format's own id or the session's ordinal. */
  id: string;
  format: FormatId;
  title: string;
  messages: Message[];
  compactions: NativeCompaction[];
  /** Models seen in the session, most frequent first. */
  models: string[];
  startedAt?: string;
  /** Session-level usage totals when the format only has totals (SWE-agent, aider). */
  usage?: Usage;
  /** Parent session id for subagent/sidechain sessions. */
  parentId?: string;
  meta?: Record<string, string | number | boolean>;
}

/** A located problem found while parsing. Importers collect all of them, not just the first. */
export interface ParseIssue {
  file: string;
  line: number;
  /** Dotted path of the offending field, when known (`message.content[2].tool_use_id`). */
  field?: string;
  message: string;
  /** What was expected there, for the user. */
  expected?: string;
  severity: "error" | "warning";
}

export interface ParseResult {
  format: FormatId;
  sessions: Session[];
  issues: ParseIssue[];
}
