import type { ContextIndex } from "../context/objects";
import type { Tokenizer } from "../../tokens/tokenizer";
import type { Session } from "../../trace/model";
import { safeCutPoints } from "./cut-points";
import { resolveParams } from "./params";
import { defaultBudgetFires } from "./shared/triggers";
import type { Policy, PolicyParams } from "./types";

/** The replay protocol's default pressure: at a cut the prefix sits at 90% of the window. */
export const DEFAULT_TRIGGER_LEVEL = 0.9;

/**
 * The window in which a prefix of `prefixTokens` sits at `level` of it. Rounded down so the budget
 * trigger `prefix >= level × window` holds exactly at the replay cut.
 */
export function windowAtLevel(prefixTokens: number, level = DEFAULT_TRIGGER_LEVEL): number {
  return Math.max(1, Math.floor(prefixTokens / level));
}

export interface CutChoice {
  cut: number;
  window: number;
  /** How the cut and window were chosen, for logs and the studio. */
  note: string;
}

/**
 * Chooses the cut and window for a run:
 * - an explicit cut keeps it (the window defaults to the prefix at the trigger level);
 * - otherwise, with a window, the last safe cut where the policy's own trigger fires;
 * - otherwise the last safe cut, with the window set so the prefix sits at the trigger level.
 */
export function selectCut(
  policy: Policy,
  session: Session,
  index: ContextIndex,
  tokenizer: Tokenizer,
  options: { cut?: number; window?: number; params?: PolicyParams; triggerLevel?: number; summaryCap?: number },
): CutChoice {
  const level = options.triggerLevel ?? DEFAULT_TRIGGER_LEVEL;
  const windowAt = (cut: number) => windowAtLevel(index.prefixTokens[cut]!, level);
  if (options.cut !== undefined) {
    return { cut: options.cut, window: options.window ?? windowAt(options.cut), note: `cut after ${options.cut} messages (given)` };
  }
  const cuts = safeCutPoints(session);
  const last = cuts.at(-1) ?? session.messages.length;
  if (options.window === undefined) {
    return { cut: last, window: windowAt(last), note: `last safe cut ${last}; window set so the prefix is at ${level * 100}% of it` };
  }
  const window = options.window;
  const params = resolveParams(policy, options.params ?? {});
  for (let i = cuts.length - 1; i >= 0; i--) {
    const cut = cuts[i]!;
    const ctx = { session, index, cut, window, tokenizer, prefixTokens: index.prefixTokens[cut]!, summaryCap: options.summaryCap ?? 2_000 };
    const fires = policy.fires ? policy.fires(ctx, params) : defaultBudgetFires(ctx, params);
    if (fires) return { cut, window, note: `last safe cut where ${policy.id}'s trigger fires at window ${window}` };
  }
  return { cut: last, window, note: `${policy.id}'s trigger never fires at window ${window}; using the last safe cut ${last}` };
}
