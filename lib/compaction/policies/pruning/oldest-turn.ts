import type { ContextObject } from "../../context/objects";
import { emptyPlan, type PolicyAction, type Sidecar } from "../../projection/types";
import { editableObjects } from "../shared/object-edits";
import type { Policy, PolicyContext } from "../types";
import { BASELINE_PARAMS, Budget, baselineFires } from "./baseline";
import { foldIfSmaller } from "./object-costs";

/**
 * Seed 000 baseline "Oldest-turn" ("chronologically folds the oldest conversational spans while
 * preserving the latest user turn"). Whole `conversation:user:k` spans are folded oldest-first via
 * `foldObject`, so each payload goes to a sidecar and stays recoverable byte for byte, until the
 * estimated view fits the target. The latest turn is never folded (harness protection).
 *
 * Long runs: when the latest turn holds most of the prefix (one request followed by hundreds of
 * tool calls — the harness then protects only the request and the newest steps), folding older
 * turns cannot reach the target; the policy then falls back to folding the oldest tool results of
 * the run itself, chronologically, and logs it. A fold that would not shrink the view (a two-line
 * turn, a tiny result) is skipped.
 */
export const oldestTurnPolicy: Policy = {
  id: "oldest-turn",
  family: "seed-000",
  source: "seed 000, Baselines: Oldest-turn chronologically folds the oldest conversational spans while preserving the latest user turn",
  description:
    "Folds the oldest user turns (to sidecars) until the view fits targetRatio of the window; in long single-request runs folds the oldest tool results instead.",
  params: [...BASELINE_PARAMS],
  fires: baselineFires,
  decide(ctx, params) {
    const plan = emptyPlan();
    const budget = new Budget(ctx, params);
    const actions: PolicyAction[] = [];
    const sidecars: Sidecar[] = [];
    const log: string[] = [];
    const editable = editableObjects(ctx);
    const folded = new Set<string>();
    const fold = (object: ContextObject, reason: string, rule: string) => {
      const done = foldIfSmaller(ctx, plan, object, reason, rule);
      if (!done) return;
      budget.save(done.saved);
      actions.push(done.action);
      sidecars.push(...done.sidecars);
      folded.add(object.id);
    };
    for (const object of editable) {
      if (budget.isMet) break;
      if (object.kind === "conversation") fold(object, "oldest conversational span folded chronologically", "oldest-turn/fold-oldest");
    }
    if (!budget.isMet && isLongRun(ctx)) {
      log.push(
        `latest turn is a long run (${ctx.cut - Math.max(ctx.protect.latestRequest, 0)} messages, only its request and newest steps protected): falling back to folding its oldest tool results`,
      );
      for (const object of editable) {
        if (budget.isMet) break;
        if (object.kind !== "function" || (object.parentId !== undefined && folded.has(object.parentId))) continue;
        fold(object, "long run: oldest tool result folded chronologically", "oldest-turn/fold-oldest-function");
      }
    }
    log.unshift(budget.describe(ctx, params), `folded ${actions.length} objects`);
    return budget.report(
      ctx,
      { plan, actions, sidecars, log },
      "the turns and tool results left sit in the protected latest turn or are too small for a fold to pay",
    );
  },
};

/** True when the latest turn is not wholly protected (no request at all, or protect's long-run mode). */
function isLongRun(ctx: PolicyContext): boolean {
  const start = ctx.protect.latestRequest;
  if (start < 0) return true;
  for (let m = start; m < ctx.cut; m++) if (!ctx.protect.messages.has(m)) return true;
  return false;
}
