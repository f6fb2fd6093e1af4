import type { ActionKind, Sidecar, ViewMessage } from "../compaction/projection/types";
import type { Message } from "../trace/model";

/**
 * Where one message of the committed head came from: an original message of the session (its index)
 * or something the harness inserted (a summary, a reminder), and per part the action a commit took
 * on it (undefined: the part is the original's, unchanged) and whether the harness added the part
 * (a fold reminder appended to a user message). Carried from commit to commit, so a part folded in
 * round 1 still says "fold" in round 3's head.
 */
export interface HeadMark {
  origin: number | "summary" | "reminder";
  parts: (ActionKind | undefined)[];
  added: boolean[];
}

/**
 * The prompt a rollout's walk gave the model at one call, as `rolloutSession` recorded it: the
 * committed head (the view after the last commit, pointers and summaries included) followed by the
 * original messages since the commit. Restored sidecar payloads are not in `messages`: they join the
 * prompt at the call of their first use (judged-rounds.ts), and `rolloutViewAt` lists those in effect.
 */
export interface WorkingContext {
  /** Index into the walk's calls, and the original index of the call's assistant message. */
  call: number;
  message: number;
  /** Original index of the first message after the head (0 before any commit). */
  base: number;
  /** One mark per head message (empty before any commit). */
  head: HeadMark[];
  /** The head, then the original messages `base`..`message` (exclusive), re-indexed from 0. */
  messages: Message[];
  /** Tokens of `messages` as the walk counted them (the call's `with.input` before restores). */
  tokens: number;
  /** The sidecars of every commit up to this call (a restore in effect here comes from one of them). */
  sidecars: Sidecar[];
}

/**
 * The head marks after a commit: `view` is the committed view of the working session whose first
 * `headLength` messages were the previous head (`previous` marks them) and whose later messages are
 * the original ones from `base` on. A view message from the previous head keeps its origin; a part
 * the commit did not change keeps its earlier action.
 */
export function markHead(view: readonly ViewMessage[], previous: readonly HeadMark[], headLength: number, base: number): HeadMark[] {
  return view.map((vm) => {
    if (typeof vm.origin !== "number") return { origin: vm.origin, parts: vm.parts.map((p) => changed(p.action)), added: vm.parts.map(() => true) };
    const earlier = vm.origin < headLength ? previous[vm.origin] : undefined;
    return {
      origin: earlier ? earlier.origin : vm.origin - headLength + base,
      parts: vm.parts.map((p) => changed(p.action) ?? (earlier && p.origin ? earlier.parts[p.origin.part] : undefined)),
      added: vm.parts.map((p) => !p.origin || (earlier?.added[p.origin.part] ?? false)),
    };
  });
}

const changed = (action: ActionKind | undefined) => (action && action !== "keep" ? action : undefined);
