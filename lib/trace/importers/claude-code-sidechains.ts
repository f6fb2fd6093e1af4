import { isRecord, str } from "../json-lines";

/** The reader of one conversation (lib/trace/importers/claude-code.ts `TranscriptReader`). */
export interface ThreadReader {
  accept(value: Record<string, unknown>, line: number): void;
}

/** What the main reader is told when an inline sidechain thread starts. */
export interface ThreadStart {
  /** The root record's `uuid` (absent in hand-written files: then the thread's ordinal names it). */
  rootUuid: string | undefined;
  ordinal: number;
  /** Text of the root user record: the prompt the parent's Task call gave the subagent. */
  prompt: string | undefined;
}

/**
 * Separates the inline sidechains of older Claude Code CLIs (1.0.x) from the main thread.
 *
 * Those CLIs write a Task subagent's own conversation into the main file (`isSidechain: true`),
 * between the Task call and its result, and several subagents of parallel Task calls may write
 * there too. The main model never saw those records; left in the main session they split its
 * tool calls from their results. Each sidechain record names its predecessor (`parentUuid`): a
 * record whose parent is a known sidechain record continues that parent's thread, any other one
 * (parent null, or a record of the main thread) starts a new thread. Every record of a thread, of
 * any type, is passed to that thread's own reader, so each becomes a session of its own.
 */
export class InlineSidechains<R extends ThreadReader> {
  private readonly threads: R[] = [];
  private readonly threadOfUuid = new Map<string, R>();

  constructor(private readonly open: (start: ThreadStart) => R) {}

  /** Routes one sidechain record to its thread; a record outside any thread that is not a message is dropped. */
  accept(record: Record<string, unknown>, line: number): void {
    const parent = str(record.parentUuid);
    let thread = parent !== undefined ? this.threadOfUuid.get(parent) : undefined;
    if (!thread) {
      if (record.type !== "user" && record.type !== "assistant") return;
      thread = this.open({
        rootUuid: str(record.uuid),
        ordinal: this.threads.length + 1,
        prompt: record.type === "user" ? promptOf(record.message) : undefined,
      });
      this.threads.push(thread);
    }
    const uuid = str(record.uuid);
    if (uuid !== undefined) this.threadOfUuid.set(uuid, thread);
    thread.accept(record, line);
  }

  /** The thread readers, in the order their first record appeared. */
  get readers(): readonly R[] {
    return this.threads;
  }
}

/** The text of a user message (a string, or its text blocks joined). */
function promptOf(message: unknown): string | undefined {
  if (!isRecord(message)) return undefined;
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((b) => isRecord(b) && b.type === "text").map((b) => str((b as Record<string, unknown>).text) ?? "");
  return texts.length ? texts.join("\n") : undefined;
}

/**
 * The calls of the main thread that start a subagent, matched to the sessions they started. A
 * Task call carries the subagent's prompt in `input.prompt`, and an inline sidechain begins with
 * that prompt as its first user message: a thread is linked to the earliest unlinked call with the
 * same prompt (never guessed when none matches). Newer CLIs write the subagent to a file of its own
 * and name it in the main file: an `agent_progress` record or the result's `toolUseResult` carries
 * the `agentId` beside the call id.
 */
export class SubagentLinks {
  private readonly unlinked: { callId: string; prompt: string }[] = [];
  private readonly sessionOfCall = new Map<string, string>();

  /** Notes the calls of a main-thread assistant record that carry a prompt. */
  noteCalls(message: unknown): void {
    if (!isRecord(message) || !Array.isArray(message.content)) return;
    for (const block of message.content) {
      if (!isRecord(block) || block.type !== "tool_use" || !isRecord(block.input)) continue;
      const callId = str(block.id);
      const prompt = str(block.input.prompt);
      if (callId !== undefined && prompt !== undefined && !this.sessionOfCall.has(callId)) this.unlinked.push({ callId, prompt });
    }
  }

  /** Links an inline thread to the call that gave it its prompt; the call id, or undefined. */
  linkThread(prompt: string | undefined, sessionId: string): string | undefined {
    if (prompt === undefined) return undefined;
    const at = this.unlinked.findIndex((c) => c.prompt.trim() === prompt.trim());
    if (at < 0) return undefined;
    const [{ callId }] = this.unlinked.splice(at, 1) as [{ callId: string; prompt: string }];
    this.sessionOfCall.set(callId, sessionId);
    return callId;
  }

  /** Links a call to a subagent file's session when a main-thread record names the agent. */
  noteAgentRecord(record: Record<string, unknown>, mainSessionId: string | undefined): void {
    if (mainSessionId === undefined) return;
    const data = isRecord(record.data) ? record.data : undefined;
    const result = isRecord(record.toolUseResult) ? record.toolUseResult : undefined;
    const agentId = str(data?.agentId) ?? str(result?.agentId);
    const callId = data ? str(record.parentToolUseID) : resultCallId(record.message);
    if (agentId === undefined || callId === undefined || this.sessionOfCall.has(callId)) return;
    this.sessionOfCall.set(callId, `${mainSessionId}:agent-${agentId}`);
    const at = this.unlinked.findIndex((c) => c.callId === callId);
    if (at >= 0) this.unlinked.splice(at, 1);
  }

  /** The subagent session a call started, when known. */
  sessionOf(callId: string): string | undefined {
    return this.sessionOfCall.get(callId);
  }
}

/** The call id a single-result user record answers. */
function resultCallId(message: unknown): string | undefined {
  if (!isRecord(message) || !Array.isArray(message.content)) return undefined;
  const results = message.content.filter((b) => isRecord(b) && b.type === "tool_result");
  return results.length === 1 ? str((results[0] as Record<string, unknown>).tool_use_id) : undefined;
}
