import type { CompactionKind, Role, Usage } from "@/lib/trace/model";

/**
 * What the session viewer reads, as plain serialisable types (no Prisma rows). Pure types only, so
 * client components may `import type` them. The JSON field names are what /api/sessions/* returns.
 */

/** One indexed context object, without its anchors (the viewer lists thousands of them). */
export interface ObjectSummary {
  /** `conversation:user:k` or `function:<tool>:n`. */
  id: string;
  kind: "conversation" | "function";
  tool?: string;
  /** Inclusive message range the object covers. */
  firstMessage: number;
  lastMessage: number;
  /** Where the tool_result part is (function objects). */
  partMessage?: number;
  partIndex?: number;
  tokens: number;
  isError?: boolean;
}

/** A compaction the agent itself performed (Claude Code compact_boundary, Codex compacted). */
export interface CompactionView {
  kind: CompactionKind;
  /** The compaction happened before this message (0..messageCount). */
  beforeMessage: number;
  trigger?: string;
  preTokens?: number;
  summary?: string;
  timestamp?: string;
}

/** Header facts and the navigation index of a session: never any message bodies. */
export interface SessionOverview {
  id: string;
  externalId: string;
  title: string;
  format: string;
  models: string[];
  tools: string[];
  tokenizer: string;
  fileName: string;
  startedAt?: string;
  messageCount: number;
  toolCalls: number;
  toolResults: number;
  /** Estimated tokens of the whole session with `tokenizer`. */
  tokens: number;
  /** Largest prompt the provider reported, when the trace has usage. */
  providerInputTokens?: number;
  /** Tokens of the largest message, the scale of every row's token bar. */
  maxMessageTokens: number;
  /** Tokens of every message, in order (used for row estimates before bodies load). */
  messageTokens: number[];
  /** One letter per message: s(ystem) u(ser) a(ssistant) t(ool). */
  roleCodes: string;
  objects: ObjectSummary[];
  compactions: CompactionView[];
}

interface Capped {
  /** True when the text was cut to the preview length; fetch the full message to see the rest. */
  truncated: boolean;
  /** Length in UTF-16 code units of the full text. */
  length: number;
  /** Lines of the full text. */
  lines: number;
}

export type PartView =
  | ({ type: "text" | "reasoning"; text: string } & Capped)
  | ({
      type: "tool_call";
      id: string;
      name: string;
      arguments: string;
      /** Message holding the result of this call, and the result's object id. */
      resultMessage?: number;
      resultObjectId?: string;
    } & Capped)
  | ({
      type: "tool_result";
      callId: string;
      name?: string;
      content: string;
      isError?: boolean;
      orphan?: boolean;
      /** The `function:<tool>:n` object this result is. */
      objectId?: string;
      /** Message holding the tool_call this result answers. */
      callMessage?: number;
    } & Capped)
  | { type: "image"; mediaType?: string; bytes?: number }
  | ({ type: "other"; kind: string; text?: string } & Capped);

export interface MessageView {
  index: number;
  role: Role;
  tokens: number;
  sourceLine: number;
  timestamp?: string;
  model?: string;
  usage?: Usage;
  meta?: Record<string, string | number | boolean>;
  /** `conversation:user:k` when this message opens a user request. */
  conversationId?: string;
  parts: PartView[];
}

export interface MessageWindow {
  sessionId: string;
  /** The window actually returned: [from, to), clamped to the session. */
  from: number;
  to: number;
  messageCount: number;
  previewChars: number;
  messages: MessageView[];
}

export interface SearchHit {
  message: number;
  /** The part that matched (text hits and function objects). */
  part?: number;
  /** Set when the hit is a context object rather than text. */
  objectId?: string;
  /** Text around the first match, whitespace collapsed (the object id for object hits). */
  snippet: string;
}

export interface SearchResult {
  query: string;
  /** "object" when the query named or prefixed context object ids, else "text". */
  mode: "object" | "text";
  hits: SearchHit[];
  /** True when the scan stopped at the hit limit (there may be more). */
  truncated: boolean;
}
