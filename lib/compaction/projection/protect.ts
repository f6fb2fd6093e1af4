import type { ContextIndex } from "../context/objects";
import type { Message } from "../../trace/model";

/**
 * The part of the prefix no policy may touch (seed 000: "mandatory last-turn retention").
 *
 * Normally that is the whole latest turn: the latest user request and everything after it. In long
 * single-task runs (one request, hundreds of tool calls) protecting the whole turn would protect the
 * whole session, so there we protect the request itself plus the newest `tailSteps` assistant steps
 * and their results.
 */
export interface ProtectedSet {
  /** Message indexes that must appear unchanged. */
  messages: Set<number>;
  /** First message of the latest turn (the latest user request), or -1 when there is none. */
  latestRequest: number;
}

export interface ProtectOptions {
  /** A latest turn holding more than this share of the prefix tokens counts as a long run. */
  longRunShare?: number;
  /** Assistant steps protected at the end of a long run. */
  tailSteps?: number;
}

export function protectedSet(messages: Message[], index: ContextIndex, cut: number, options: ProtectOptions = {}): ProtectedSet {
  const longRunShare = options.longRunShare ?? 0.5;
  const tailSteps = options.tailSteps ?? 2;
  let latestRequest = -1;
  for (let m = cut - 1; m >= 0; m--) {
    const turn = index.turnOf[m];
    if (turn && index.byId.get(turn)?.firstMessage === m) {
      latestRequest = m;
      break;
    }
  }
  const set = new Set<number>();
  if (latestRequest === -1) {
    addTail(messages, cut, tailSteps, set);
    return { messages: set, latestRequest };
  }
  const turnTokens = index.prefixTokens[cut]! - index.prefixTokens[latestRequest]!;
  const prefixTokens = index.prefixTokens[cut]!;
  if (turnTokens <= longRunShare * prefixTokens) {
    for (let m = latestRequest; m < cut; m++) set.add(m);
  } else {
    set.add(latestRequest);
    addTail(messages, cut, tailSteps, set);
  }
  return { messages: set, latestRequest };
}

/** Protects the last `steps` assistant messages before `cut` and everything after the first of them. */
function addTail(messages: Message[], cut: number, steps: number, set: Set<number>): void {
  let seen = 0;
  let start = cut;
  for (let m = cut - 1; m >= 0 && seen < steps; m--) {
    start = m;
    if (messages[m]!.role === "assistant") seen++;
  }
  for (let m = start; m < cut; m++) set.add(m);
}
