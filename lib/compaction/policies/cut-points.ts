import type { Session } from "../../trace/model";

/**
 * Safe cut points of a session: prefix lengths k (1 ≤ k < n) where message k is an assistant step
 * and every tool call before k already has its result — the moments a harness could compact
 * between two model calls without splitting a call from its result. The future is messages[k..].
 */
export function safeCutPoints(session: Session): number[] {
  const cuts: number[] = [];
  // Calls the trace never answers (interrupted runs) must not block every later cut.
  const answered = new Set<string>();
  for (const m of session.messages) for (const p of m.parts) if (p.type === "tool_result") answered.add(p.callId);
  const open = new Set<string>();
  session.messages.forEach((message, k) => {
    if (k > 0 && message.role === "assistant" && open.size === 0) cuts.push(k);
    for (const part of message.parts) {
      if (part.type === "tool_call" && answered.has(part.id)) open.add(part.id);
      else if (part.type === "tool_result") open.delete(part.callId);
    }
  });
  return cuts;
}
