import type { Message, SourceRecord } from "../model";

/** A message as the Claude Code reader builds it from one record, before it gets its index. */
export type MessageDraft = Omit<Message, "index">;

/**
 * Reassembles Claude Code's split API responses. Claude Code writes one assistant response (one
 * `message.id`) as one record per content block, and starts running a tool as soon as its
 * `tool_use` block is written, so parallel calls look like
 *
 *   assistant(id X, tool_use a) · user(tool_result a) · assistant(id X, tool_use b) · user(tool_result b)
 *
 * The model produced one message [a, b] and then received both results; that is what every
 * consumer needs (provider projections pair results with the assistant message holding the calls,
 * safe cuts fall between model calls, per-message overhead is counted once per response). So
 * consecutive assistant records of one `message.id` become one message whose parts keep record
 * order, and tool-result records that arrived in between follow it in their own order. Any other
 * record (a user prompt, another response, a compact boundary) closes the response.
 *
 * The merged message keeps its first record's source line, timestamp and model, lists every record
 * in `records` (with how many parts each gave) and carries the usage of the last record that
 * reported one: the records repeat the response's usage, the last with the final output count.
 */
export class ResponseAssembler {
  private open: { apiMessageId: string; draft: MessageDraft; records: SourceRecord[] } | undefined;
  private held: MessageDraft[] = [];

  constructor(private readonly add: (draft: MessageDraft, apiMessageId: string | undefined) => void) {}

  /**
   * Takes the record into the open response when it continues it (same `message.id`) or is a tool
   * result arriving while the response is still being written; false when it does not belong.
   */
  absorb(draft: MessageDraft, apiMessageId: string | undefined): boolean {
    const open = this.open;
    if (!open) return false;
    if (draft.role === "assistant" && apiMessageId === open.apiMessageId) {
      open.draft.parts.push(...draft.parts);
      open.records.push({ line: draft.source.line, parts: draft.parts.length });
      if (draft.usage) open.draft.usage = draft.usage;
      if (draft.meta) open.draft.meta = { ...open.draft.meta, ...draft.meta };
      open.draft.model ??= draft.model;
      return true;
    }
    if (draft.role === "tool") {
      this.held.push(draft);
      return true;
    }
    return false;
  }

  /** Starts a response (an assistant record with an id) or adds any other record at once. */
  start(draft: MessageDraft, apiMessageId: string | undefined): void {
    this.flush();
    if (draft.role === "assistant" && apiMessageId !== undefined) {
      this.open = { apiMessageId, draft: { ...draft, parts: [...draft.parts] }, records: [{ line: draft.source.line, parts: draft.parts.length }] };
    } else this.add(draft, undefined);
  }

  /** Adds the open response (merged) and the tool results held behind it. */
  flush(): void {
    const open = this.open;
    this.open = undefined;
    if (open) this.add(open.records.length > 1 ? { ...open.draft, records: open.records } : open.draft, open.apiMessageId);
    const held = this.held;
    this.held = [];
    for (const draft of held) this.add(draft, undefined);
  }
}
