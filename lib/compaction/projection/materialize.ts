import type { ContextIndex } from "../context/objects";
import { countPartTokens, MESSAGE_OVERHEAD_TOKENS } from "../../tokens/message-tokens";
import type { Tokenizer } from "../../tokens/tokenizer";
import type { Message, Part } from "../../trace/model";
import { repairLineage, type LineageFix } from "./lineage";
import type { ProtectedSet } from "./protect";
import { partKey, type EditPlan, type RejectedAction, type ViewMessage, type ViewPart } from "./types";

export interface MaterializedView {
  view: ViewMessage[];
  /** Tokens of the projected view (summary and reminders included). */
  tokens: number;
  /** Edits refused because they touched the protected latest turn. */
  rejected: RejectedAction[];
  /** Parts lineage repair removed to keep calls and results together. */
  lineageFixes: LineageFix[];
}

/**
 * Applies an edit plan to the prefix `messages[0..cut)` and returns the view the agent would see.
 * Enforces, whatever the policy asked: the protected latest turn is unchanged (edits touching it
 * are rejected; reminders meant for it go into a separate reminder message just before it), every
 * tool result keeps its call, and no message is left empty. Untouched messages reuse the index's
 * token counts, so this is linear in the prefix and re-tokenises only what changed.
 */
export function materializeView(
  messages: Message[],
  cut: number,
  index: ContextIndex,
  plan: EditPlan,
  protect: ProtectedSet,
  tokenizer: Tokenizer,
): MaterializedView {
  const prefix = messages.slice(0, cut);
  const rejected = rejectProtectedEdits(plan, protect);
  const lineageFixes = repairLineage(prefix, plan, (m) => protect.messages.has(m));
  const view: ViewMessage[] = [];
  let tokens = 0;
  const push = (message: ViewMessage, counted?: number) => {
    view.push(message);
    tokens += counted ?? countViewMessage(message, tokenizer);
  };
  const orphanReminders = takeProtectedReminders(plan, protect);
  for (let m = 0; m < prefix.length; m++) {
    if (plan.summary && plan.summary.at === m) summaryMessages(plan.summary).forEach((s) => push(s));
    if (m === protect.latestRequest && orphanReminders.length > 0) push(reminderMessage(orphanReminders));
    if (plan.dropMessages.has(m)) continue;
    const message = prefix[m]!;
    const reminders = plan.reminders.get(m) ?? [];
    let touched = reminders.length > 0;
    const parts: ViewPart[] = [];
    message.parts.forEach((part, p) => {
      const edit = plan.parts.get(partKey({ message: m, part: p }));
      const objectId = objectIdOf(index, m, p, part);
      const base = { origin: { message: m, part: p }, ...(objectId ? { objectId } : {}) };
      if (!edit) parts.push({ ...part, ...base });
      else {
        touched = true;
        if (edit.op === "replace") parts.push({ ...replaceContent(part, edit.text), ...base, action: edit.action });
      }
    });
    for (const text of reminders) parts.push({ type: "text", text, action: "fold" });
    if (parts.length === 0) continue;
    push({ role: message.role, parts, origin: m }, touched ? undefined : index.messageTokens[m]);
  }
  if (plan.summary && plan.summary.at >= prefix.length) summaryMessages(plan.summary).forEach((s) => push(s));
  return { view, tokens, rejected, lineageFixes };
}

function rejectProtectedEdits(plan: EditPlan, protect: ProtectedSet): RejectedAction[] {
  const rejected: RejectedAction[] = [];
  for (const m of [...plan.dropMessages]) {
    if (protect.messages.has(m)) {
      plan.dropMessages.delete(m);
      rejected.push({ target: `message:${m}`, reason: "touches the protected latest turn" });
    }
  }
  for (const key of [...plan.parts.keys()]) {
    const m = Number(key.split(":")[0]);
    if (protect.messages.has(m)) {
      plan.parts.delete(key);
      rejected.push({ target: `message:${m}`, reason: "touches the protected latest turn" });
    }
  }
  if (plan.summary && protect.latestRequest >= 0 && plan.summary.at > protect.latestRequest) {
    // A summary may not be spliced inside the latest turn: move it to the turn's start.
    plan.summary = { ...plan.summary, at: protect.latestRequest };
  }
  return rejected;
}

function takeProtectedReminders(plan: EditPlan, protect: ProtectedSet): string[] {
  const moved: string[] = [];
  for (const [m, texts] of [...plan.reminders]) {
    if (protect.messages.has(m)) {
      moved.push(...texts);
      plan.reminders.delete(m);
    }
  }
  return moved;
}

function objectIdOf(index: ContextIndex, m: number, p: number, part: Part): string | undefined {
  if (part.type === "tool_result") return index.functionAt.get(`${m}:${p}`);
  const turn = index.turnOf[m];
  return turn && index.byId.get(turn)?.firstMessage === m ? turn : undefined;
}

/** Replaces what the model reads of a part, keeping its identity (call ids, names). */
function replaceContent(part: Part, text: string): Part {
  switch (part.type) {
    case "tool_result":
      return { ...part, content: text };
    case "tool_call":
      return { ...part, arguments: text };
    case "text":
    case "reasoning":
      return { ...part, text };
    default:
      return { type: "text", text };
  }
}

export function summaryMessage(text: string): ViewMessage {
  return { role: "user", origin: "summary", parts: [{ type: "text", text, action: "summarize" }] };
}

/** The summary message and, when the plan has one, the assistant reply that follows it. */
function summaryMessages(summary: NonNullable<EditPlan["summary"]>): ViewMessage[] {
  const out = [summaryMessage(summary.text)];
  if (summary.reply) out.push({ role: "assistant", origin: "summary", parts: [{ type: "text", text: summary.reply, action: "summarize" }] });
  return out;
}

function reminderMessage(texts: string[]): ViewMessage {
  return { role: "user", origin: "reminder", parts: texts.map((text) => ({ type: "text" as const, text, action: "fold" as const })) };
}

export function countViewMessage(message: ViewMessage, tokenizer: Tokenizer): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  for (const part of message.parts) total += countPartTokens(part, tokenizer);
  return total;
}
