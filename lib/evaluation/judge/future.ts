import { isUserRequest } from "./requests";
import type { Message, Session } from "../../trace/model";
import { isNativeSummary, readableSegments, readableText } from "./part-texts";
import type { PartRef } from "./types";

/**
 * The future after a cut, split the way the re-discovery rule needs it:
 * - `uses`: assistant text and tool-call arguments (what the agent produced: a value there was
 *   needed). Reasoning is left out: it is often redacted or summarised, and a value only counts
 *   when it reaches what the agent said or did.
 * - `rediscoveries`: tool results and user messages (what the environment or the user supplied
 *   again: a value there could be re-found, so it is not a dependency if it came first).
 * The harness's own compaction summary recorded in the trace (`meta.compactSummary`) is a
 * re-discovery like any user message: the agent received it, so a value it carries was supplied
 * again (careful readers of the gold set read it so: after a native compaction the agent works from
 * the summary and re-reads what it needs).
 */
export interface FutureText {
  ref: PartRef;
  text: string;
  /** A tool call's arguments (an action), not prose. */
  isCall?: boolean;
  /** The pieces of `text` (tool-call argument leaves), so verbatim spans never straddle two leaves. */
  segments: string[];
}

export interface FutureView {
  uses: FutureText[];
  rediscoveries: FutureText[];
  /** First real user request at or after the cut (messages.length when none). */
  nextRequest: number;
  assistantSteps: number;
  assistantChars: number;
}

/** A message that is the future's next user request: a real user request, neither meta nor a native summary. */
export function isNextRequest(message: Message): boolean {
  return !isNativeSummary(message) && isUserRequest(message) && message.meta?.meta !== true;
}

export function splitFuture(session: Session, cut: number): FutureView {
  const uses: FutureText[] = [];
  const rediscoveries: FutureText[] = [];
  let nextRequest = session.messages.length;
  let assistantSteps = 0;
  let assistantChars = 0;
  for (let m = cut; m < session.messages.length; m++) {
    const message = session.messages[m]!;
    if (isNativeSummary(message)) {
      message.parts.forEach((part, p) => rediscoveries.push({ ref: { message: m, part: p }, text: readableText(part), segments: [] }));
      continue;
    }
    if (message.role === "assistant") {
      let counted = false;
      message.parts.forEach((part, p) => {
        if (part.type !== "text" && part.type !== "tool_call") return;
        const segments = readableSegments(part);
        const text = segments.join("\n");
        if (!text.trim()) return;
        uses.push({ ref: { message: m, part: p }, text, segments, isCall: part.type === "tool_call" });
        assistantChars += text.length;
        counted = true;
      });
      if (counted) assistantSteps++;
      continue;
    }
    if (nextRequest === session.messages.length && isNextRequest(message)) nextRequest = m;
    message.parts.forEach((part, p) => rediscoveries.push({ ref: { message: m, part: p }, text: readableText(part), segments: [] }));
  }
  return { uses, rediscoveries, nextRequest, assistantSteps, assistantChars };
}
