import type { ActionKind } from "../compaction/projection/types";
import type { Policy } from "../compaction/policies/types";
import { sidecarTexts } from "../evaluation/judge/view-texts";
import type { Message } from "../trace/model";
import type { LostStep, RestoreEvent } from "./judged-rounds";
import type { RolloutItem, RolloutSuiteOptions } from "./rollout-report";
import { rolloutSession, type RolloutCall } from "./rollout-session";
import { policyWalkOptions, sessionBilling } from "./rollout-session-walks";

/** One message of the prompt at a call: the message as the model got it, and where it came from. */
export interface RolloutViewMessage {
  message: Message;
  /** Original message index, or what the harness inserted (a summary, a reminder). */
  origin: number | "summary" | "reminder";
  /** Per part, the action a commit took on it (undefined: the original part, unchanged). */
  actions: (ActionKind | undefined)[];
  /** Per part, whether the harness added it (a fold reminder, a summary's text), not the trace. */
  added: boolean[];
  /** True for the committed head (the view after the last commit), false for the messages since. */
  inHead: boolean;
}

/** A sidecar payload restored before or at this call, still in the prompt (until the next commit). */
export interface RolloutViewRestore extends RestoreEvent {
  /** The payload as the model reads it back (a folded turn's parts, a tool result). */
  texts: string[];
}

/**
 * The prompt one policy's rollout gave the model at one call, and what the judge found there.
 * Identity: `tokens.view + tokens.restored === call.with.input` (the walk's count of the prompt).
 */
export interface RolloutViewAt {
  sessionId: string;
  policy: string;
  window: number;
  /** Index into the walk's calls, their number, and the original index of the call's assistant message. */
  call: number;
  calls: number;
  message: number;
  /** Commits before this call (0: the prompt is the original's); `compacted`: one came right before it. */
  round: number;
  compacted: boolean;
  /** The committed head, then the original messages since the commit, in prompt order. */
  messages: RolloutViewMessage[];
  /** Restores in effect: their payloads are in the prompt at this call, after `messages`. */
  restores: RolloutViewRestore[];
  tokens: { view: number; restored: number; with: number; without: number };
  withCall: RolloutCall;
  /** The values this call's step needed that the committed view had lost (with the round that lost each). */
  lost: LostStep["lost"];
  /** The original messages of the step this call produced (the assistant's, where the lost values were used). */
  step: Message[];
  /** Every call of the walk that lost something, to move between them. */
  lostCalls: { call: number; values: number }[];
}

/**
 * Re-walks one session under one policy with a rollout's options — the same engine and the same
 * per-policy options as `rolloutSessionWalks` (`policyWalkOptions`) — and returns the prompt the
 * walk gave the model at `call` (an index into the walk's calls): the committed head, with the
 * harness's fold pointers and summaries, the original messages since, and the restored payloads in
 * effect, plus the lost values charged to that call. Undefined when the session has no such call.
 * Cost: one walk of the session (linear), as the run did.
 */
export async function rolloutViewAt(
  item: RolloutItem,
  policy: Policy,
  options: Omit<RolloutSuiteOptions, "onProgress" | "total">,
  call: number,
): Promise<RolloutViewAt | undefined> {
  if (!Number.isInteger(call) || call < 0) return undefined;
  const { window, price } = sessionBilling(item, options);
  const result = await rolloutSession(item.session, policy, { ...policyWalkOptions(item, policy, options, window, price), recordCall: call });
  const context = result.workingContext;
  const withCall = result.calls[call];
  if (!context || !withCall) return undefined;
  const round = result.compactions.filter((c) => c.call <= call).length;
  const headLength = context.head.length;
  const messages = context.messages.map((message, i): RolloutViewMessage => {
    const mark = context.head[i];
    return mark
      ? { message, origin: mark.origin, actions: mark.parts, added: mark.added, inHead: true }
      : { message, origin: i - headLength + context.base, actions: message.parts.map(() => undefined), added: message.parts.map(() => false), inHead: false };
  });
  // A restore is in effect from its call until the next commit after it (judged-rounds.ts settles it so).
  const bySha = new Map(context.sidecars.map((s) => [s.sha256, s]));
  const restores = result.restores
    .filter((r) => r.call <= call && !result.compactions.some((c) => c.call > r.call && c.call <= call))
    .map((r) => ({ ...r, texts: bySha.has(r.sha256) ? sidecarTexts(bySha.get(r.sha256)!) : [] }));
  const restored = restores.reduce((a, r) => a + r.cost, 0);
  let stepEnd = context.message;
  while (stepEnd < item.session.messages.length && item.session.messages[stepEnd]!.role === "assistant") stepEnd++;
  return {
    sessionId: item.session.id,
    policy: policy.id,
    window,
    call,
    calls: result.calls.length,
    message: context.message,
    round,
    compacted: withCall.compacted,
    messages,
    restores,
    tokens: { view: context.tokens, restored, with: withCall.with.input, without: withCall.without.input },
    withCall,
    lost: result.lostSteps.find((s) => s.call === call)?.lost ?? [],
    step: item.session.messages.slice(context.message, stepEnd),
    lostCalls: result.lostSteps.map((s) => ({ call: s.call, values: s.lost.length })),
  };
}
