import type { ConversationFacts, FunctionFacts } from "./facts";
import type { KeepReason, Verdict } from "./verdicts";
import { isGoverningRequest } from "./contracts";

/**
 * Granularity (seed 000, planner contract rule 2 and Table 5): prefer tool-level actions; fold a
 * whole user turn only when it is resolved, large, and nothing inside it is still needed:
 * - not protected, and not the turn the latest request directly continues from;
 * - no user constraint, correction or carried summary in its request;
 * - no handle it introduced is used after it ended (the fold would hide where it came from);
 * - none of its tool results is a dependency (live handle, editable body, contract, quoted
 *   evidence, working set), whether kept or folded tool-level (a dependency-bearing body is folded
 *   on its own so its pointer names it);
 * - a turn whose only live parts are large working-set bodies (tier 3) is offered whole at tier 3,
 *   spent only as the reserve (one turn pointer costs less than one pointer per body inside).
 */
const BLOCKING: ReadonlySet<KeepReason> = new Set(["protected", "contract", "user_feedback", "live_handle", "editable_body", "exact_evidence", "recent"]);

export interface TurnFold {
  id: string;
  reason: string;
  /** 1.5: a resolved turn; 3: a turn whose only live parts are working-set bodies (the reserve). */
  tier: 1.5 | 3;
}

export interface TurnSignals {
  verdicts: Map<string, Verdict>;
  /** Conversation id → handles introduced in the turn and used after it. */
  referenced: Map<string, string[]>;
  turnTokens: (c: ConversationFacts) => number;
  minTokens: number;
}

export function findFoldableTurns(conversations: ConversationFacts[], functions: FunctionFacts[], signals: TurnSignals): TurnFold[] {
  const blocked = new Set<string>();
  const reserve = new Set<string>();
  for (const f of functions) {
    const verdict = signals.verdicts.get(f.object.id);
    if (!f.object.parentId || !verdict) continue;
    if ("keep" in verdict ? BLOCKING.has(verdict.keep) : verdict.tier === 2) blocked.add(f.object.parentId);
    else if (!("keep" in verdict) && verdict.tier === 3) reserve.add(f.object.parentId);
  }
  const folds: TurnFold[] = [];
  const latestUnprotected =
    conversations.length -
    1 -
    conversations
      .slice()
      .reverse()
      .findIndex((c) => !c.isProtected);
  conversations.forEach((c, i) => {
    if (c.isProtected || i >= latestUnprotected || blocked.has(c.object.id) || signals.referenced.has(c.object.id)) return;
    if (isGoverningRequest(c.request)) return;
    const tokens = signals.turnTokens(c);
    if (tokens < signals.minTokens) return;
    // A turn holding working-set bodies (and nothing else still needed) is folded whole only as the
    // reserve, like those bodies.
    folds.push(
      reserve.has(c.object.id)
        ? { id: c.object.id, reason: `working_set_turn: ${tokens} tokens; its newest steps are folded with it only as the reserve`, tier: 3 }
        : { id: c.object.id, reason: `resolved_turn: ${tokens} tokens of finished work, nothing inside is used later`, tier: 1.5 },
    );
  });
  return folds;
}
