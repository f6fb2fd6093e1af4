import { isUserRequest } from "../../context/objects";
import type { Message } from "../../../trace/model";
import type { PolicyContext } from "../types";

/**
 * Positions on the conversation timeline the summary policies split at (seed 001: "pick a moment on
 * the timeline, collapse everything older, keep everything newer"). All linear in the prefix.
 */
type TimelineContext = Pick<PolicyContext, "session" | "index" | "cut">;

/** Start of each user turn inside the prefix, oldest first (seed 001's "turn"). */
export function turnStarts(ctx: TimelineContext): number[] {
  const starts: number[] = [];
  for (const o of ctx.index.objects) if (o.kind === "conversation" && o.firstMessage < ctx.cut) starts.push(o.firstMessage);
  return starts;
}

/** First message of the first user turn; messages before it are the preamble (system prompt, environment). */
export function preambleEnd(ctx: TimelineContext): number {
  return turnStarts(ctx)[0] ?? ctx.cut;
}

/** The preamble's system messages: kept by every summary policy (the harness re-sends its initial context). */
export function preambleSystem(ctx: TimelineContext): Set<number> {
  const kept = new Set<number>();
  const end = preambleEnd(ctx);
  for (let m = 0; m < end; m++) if (ctx.session.messages[m]!.role === "system") kept.add(m);
  return kept;
}

/**
 * `safe[k]` is true when splitting before message k separates no tool call from its result inside
 * the prefix, so a tail starting at k needs no lineage repair. Length cut + 1.
 */
export function safeBoundaries(messages: readonly Message[], cut: number): boolean[] {
  const open = new Map<string, number>();
  const delta = new Array<number>(cut + 2).fill(0);
  for (let m = 0; m < cut; m++) {
    for (const part of messages[m]!.parts) {
      if (part.type === "tool_call") open.set(part.id, m);
      else if (part.type === "tool_result") {
        const call = open.get(part.callId);
        if (call === undefined || call >= m) continue;
        delta[call + 1]! += 1;
        delta[m + 1]! -= 1;
        open.delete(part.callId);
      }
    }
  }
  const safe = new Array<boolean>(cut + 1);
  let depth = 0;
  for (let k = 0; k <= cut; k++) {
    depth += delta[k]!;
    safe[k] = depth === 0;
  }
  return safe;
}

/** A step boundary: safe, and the message there is an assistant step (where a harness can compact). */
export function isStepBoundary(messages: readonly Message[], safe: readonly boolean[], k: number): boolean {
  return safe[k] === true && messages[k]?.role === "assistant";
}

/** The nearest safe position at or before `k` (0 is always safe). */
export function snapBack(safe: readonly boolean[], k: number): number {
  let m = Math.min(k, safe.length - 1);
  while (m > 0 && !safe[m]) m--;
  return Math.max(0, m);
}

/**
 * First message of the latest turn as the harness protects it: the trailing run of protected
 * messages. Normally the latest user request; in a long single-task run, the newest steps.
 */
export function latestTurnStart(ctx: Pick<PolicyContext, "protect" | "cut">): number {
  let m = ctx.cut;
  while (m > 0 && ctx.protect.messages.has(m - 1)) m--;
  return m;
}

/** Harness-injected wrappers that are not the user speaking (Codex drops them from the rebuild). */
const CONTEXT_WRAPPERS =
  /^\s*(<environment_context>|<user_instructions>|<INSTRUCTIONS>|<ENVIRONMENT_CONTEXT>|# AGENTS\.md instructions|<command-name>|<local-command-stdout>|Caveat: The messages below were generated)/;

/**
 * A real user message: a user request (seed 000) that is not a carried-over summary, a meta record
 * or a harness-injected context wrapper (Codex `collect_user_messages`).
 */
export function isRealUserMessage(message: Message): boolean {
  if (!isUserRequest(message)) return false;
  const meta = message.meta ?? {};
  if (meta.compactSummary === true || meta.meta === true || meta.transcriptOnly === true || meta.isDemo === true) return false;
  const first = message.parts.find((p) => p.type === "text");
  return !(first && first.type === "text" && CONTEXT_WRAPPERS.test(first.text));
}
