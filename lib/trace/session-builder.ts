import type { FormatId, Message, NativeCompaction, Part, Session, SourceRef, ToolCallPart } from "./model";

/**
 * Assembles a `Session` message by message so every importer gets the same invariants for free:
 * dense indexes, tool results linked to their calls (or flagged `orphan`), result names filled in
 * from the call, models ranked by frequency and a readable title.
 */
export class SessionBuilder {
  private readonly messages: Message[] = [];
  private readonly compactions: NativeCompaction[] = [];
  private readonly calls = new Map<string, ToolCallPart>();
  private readonly modelCounts = new Map<string, number>();
  private syntheticCallCounter = 0;

  constructor(
    readonly id: string,
    private readonly format: FormatId,
  ) {}

  get messageCount(): number {
    return this.messages.length;
  }

  /** A deterministic call id for formats without ids (`call_1`, `call_2`, … per session). */
  nextSyntheticCallId(): string {
    this.syntheticCallCounter += 1;
    return `call_${this.syntheticCallCounter}`;
  }

  /** The most recent tool call part, for formats that pair results with calls by order. */
  lastCall(): ToolCallPart | undefined {
    let last: ToolCallPart | undefined;
    for (const call of this.calls.values()) last = call;
    return last;
  }

  add(message: Omit<Message, "index">): Message {
    const parts = message.parts.map((part) => this.linkPart(part));
    const added: Message = { ...message, parts, index: this.messages.length };
    if (message.model) this.modelCounts.set(message.model, (this.modelCounts.get(message.model) ?? 0) + 1);
    this.messages.push(added);
    return added;
  }

  /** Records a native compaction just before the next message to be added (unless given). */
  addCompaction(compaction: Omit<NativeCompaction, "beforeMessage"> & { beforeMessage?: number }): void {
    this.compactions.push({ ...compaction, beforeMessage: compaction.beforeMessage ?? this.messages.length });
  }

  /** Counts a model seen outside a message (session header, usage record). */
  noteModel(model: string | undefined): void {
    if (model) this.modelCounts.set(model, (this.modelCounts.get(model) ?? 0) + 0.5);
  }

  build(extra: Partial<Omit<Session, "id" | "format" | "messages" | "compactions" | "models">> = {}): Session {
    const models = [...this.modelCounts.entries()].sort((a, b) => b[1] - a[1]).map(([m]) => m);
    return {
      id: this.id,
      format: this.format,
      title: extra.title ?? deriveTitle(this.messages),
      messages: this.messages,
      compactions: this.compactions,
      models,
      ...stripUndefined({ ...extra, title: undefined }),
      startedAt: extra.startedAt ?? this.messages.find((m) => m.timestamp)?.timestamp,
    };
  }

  private linkPart(part: Part): Part {
    if (part.type === "tool_call") {
      this.calls.set(part.id, part);
      return part;
    }
    if (part.type !== "tool_result") return part;
    const call = this.calls.get(part.callId);
    if (!call) return { ...part, orphan: true };
    return part.name ? part : { ...part, name: call.name };
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** First line of the first user text, cut to 80 characters; the session id otherwise. */
export function deriveTitle(messages: Message[]): string {
  for (const message of messages) {
    if (message.role !== "user") continue;
    for (const part of message.parts) {
      if (part.type === "text" && part.text.trim()) {
        const line = part.text.trim().split("\n")[0] ?? "";
        return line.length > 80 ? `${line.slice(0, 79)}…` : line;
      }
    }
  }
  return "(untitled session)";
}

/** Convenience for importers: a source reference. */
export function at(file: string, line: number): SourceRef {
  return { file, line };
}

/** Session ids must be unique within a file: a repeated one gets a `-2`, `-3`… suffix (recorded in `used`). */
export function uniqueSessionId(id: string, used: Set<string>): string {
  let candidate = id;
  for (let n = 2; used.has(candidate); n++) candidate = `${id}-${n}`;
  used.add(candidate);
  return candidate;
}
