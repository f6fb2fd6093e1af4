import { RESTORE_CALL_TOKENS, sidecarTokens } from "../evaluation/judge/restores";
import type { CheckedDependency } from "../evaluation/judge/types";
import type { Sidecar } from "../compaction/projection/types";
import type { FailureCategory } from "../scenario/failure-categories";
import type { Tokenizer } from "../tokens/tokenizer";

/**
 * One committed compaction as the dependency judge saw it: every value the real continuation used
 * from before the commit, checked against the committed view (visible, restorable from a sidecar
 * whose pointer is in the view, or lost).
 */
export interface JudgedRound {
  /** 1-based compaction round of the session. */
  round: number;
  /** Original message index of the call the commit came before. */
  message: number;
  /** Maps a message index of the judged (working) session to the original session's. */
  toOriginal: (message: number) => number;
  checked: CheckedDependency[];
  sidecars: Sidecar[];
}

/** A sidecar brought back at a call: its payload re-enters the prompt until the next commit. */
export interface RestoreEvent {
  round: number;
  /** Index into the rollout's calls, and the original message of that call. */
  call: number;
  message: number;
  target: string;
  sha256: string;
  /** The payload's tokens; `cost` adds the restore call's framing (RESTORE_CALL_TOKENS). */
  tokens: number;
  cost: number;
}

/** A call whose step needed values the committed view had lost. */
export interface LostStep {
  call: number;
  message: number;
  lost: { value: string; kind: string; category: FailureCategory | "unclassified"; round: number }[];
}

export interface SettledRounds {
  /** Per call: tokens added to the prompt by restores (payload and framing) still in effect. */
  extraInput: number[];
  /** Per call: tokens restored right before it. */
  restoredAt: number[];
  restores: RestoreEvent[];
  lostSteps: LostStep[];
}

/**
 * Turns the judged rounds into what the rollout reports, in one pass over the dependencies and one
 * over the calls (a difference array):
 * - a **lost** dependency is charged to its round and to the call of its first use, whenever that
 *   comes — a value the view lost stays lost, and later rounds never see it again;
 * - a **restorable** one is restored at its first use (once per sidecar and round): the payload and
 *   the restore call's framing join the prompt from that call until the next commit, which folds the
 *   session again from its own view;
 * - a **visible** one costs nothing.
 */
export function settleRounds(
  rounds: readonly JudgedRound[],
  callMessages: readonly number[],
  commitCalls: readonly number[],
  tokenizer: Tokenizer,
): SettledRounds {
  const delta = new Array<number>(callMessages.length + 1).fill(0);
  const restoredAt = new Array<number>(callMessages.length).fill(0);
  const restores: RestoreEvent[] = [];
  const lostByCall = new Map<number, LostStep>();
  const count = (text: string) => tokenizer.count(text);
  for (const round of rounds) {
    const bySha = new Map(round.sidecars.map((s) => [s.sha256, s]));
    const firstUse = new Map<string, number>();
    for (const dependency of round.checked) {
      if (dependency.status === "visible") continue;
      const call = callOf(callMessages, round.toOriginal(dependency.usedAt.message));
      if (dependency.status === "lost") {
        const step = lostByCall.get(call) ?? { call, message: callMessages[call]!, lost: [] };
        step.lost.push({ value: dependency.value, kind: dependency.kind, category: dependency.category ?? "unclassified", round: round.round });
        lostByCall.set(call, step);
      } else if (dependency.sidecar && bySha.has(dependency.sidecar.sha256)) {
        const sha = dependency.sidecar.sha256;
        firstUse.set(sha, Math.min(firstUse.get(sha) ?? Number.POSITIVE_INFINITY, call));
      }
    }
    for (const [sha, call] of [...firstUse].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))) {
      const sidecar = bySha.get(sha)!;
      const tokens = sidecarTokens(sidecar, count);
      const cost = tokens + RESTORE_CALL_TOKENS;
      restores.push({ round: round.round, call, message: callMessages[call]!, target: sidecar.target, sha256: sha, tokens, cost });
      restoredAt[call]! += cost;
      delta[call]! += cost;
      delta[nextCommitAfter(commitCalls, call, callMessages.length)]! -= cost;
    }
  }
  const extraInput: number[] = [];
  let running = 0;
  for (let i = 0; i < callMessages.length; i++) extraInput.push((running += delta[i]!));
  return { extraInput, restoredAt, restores, lostSteps: [...lostByCall.values()].sort((a, b) => a.call - b.call) };
}

/** The call whose step contains original message `message`: the last call starting at or before it. */
function callOf(callMessages: readonly number[], message: number): number {
  let lo = 0,
    hi = callMessages.length - 1,
    found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (callMessages[mid]! <= message) ((found = mid), (lo = mid + 1));
    else hi = mid - 1;
  }
  return found;
}

/** The first commit strictly after `call` (its call index; `commitCalls` ascending), or `end`. */
function nextCommitAfter(commitCalls: readonly number[], call: number, end: number): number {
  let lo = 0,
    hi = commitCalls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (commitCalls[mid]! <= call) lo = mid + 1;
    else hi = mid;
  }
  return commitCalls[lo] ?? end;
}
