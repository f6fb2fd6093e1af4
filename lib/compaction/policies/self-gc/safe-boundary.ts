import type { Session } from "../../../trace/model";

/**
 * Seed 000 commits only "at a safe turn boundary" (Listing 5): between two model calls, with no
 * tool call of the prefix still waiting for its result. Calls the trace never answers (an
 * interrupted run) do not block, as in `safeCutPoints`. Linear in the prefix.
 */
export function isSafeTurnBoundary(session: Session, cut: number): boolean {
  const next = session.messages[cut];
  if (next && next.role === "tool") return false;
  const answered = new Set<string>();
  for (const m of session.messages) for (const p of m.parts) if (p.type === "tool_result") answered.add(p.callId);
  const open = new Map<string, number>();
  for (let m = 0; m < cut; m++) {
    for (const part of session.messages[m]!.parts) {
      if (part.type === "tool_call" && answered.has(part.id)) open.set(part.id, (open.get(part.id) ?? 0) + 1);
      else if (part.type === "tool_result") {
        const n = open.get(part.callId) ?? 0;
        if (n <= 1) open.delete(part.callId);
        else open.set(part.callId, n - 1);
      }
    }
  }
  return open.size === 0;
}
