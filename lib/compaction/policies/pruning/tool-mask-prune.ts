import { emptyPlan, partKey, type PolicyAction } from "../../projection/types";
import { partText } from "../../../tokens/message-tokens";
import { numParam } from "../params";
import { editableObjects, maskObject } from "../shared/object-edits";
import type { Policy } from "../types";
import { BASELINE_PARAMS, Budget, baselineFires } from "./baseline";
import { LOW_SIGNAL_DEFAULTS, lowSignalReason, type LowSignalThresholds } from "./low-signal";
import { NOT_TOOL_OUTPUT, pruneWithCall } from "./object-costs";

/**
 * Seed 000 baseline "Tool-mask+prune" ("first masks low-signal tool spans and then prunes remaining
 * tool outputs when additional budget is needed"). Two passes, both oldest-first, both stopping as
 * soon as the estimated view fits the target:
 * 1. mask every low-signal tool result (low-signal.ts): the shared seed 000 mask keeps the first and
 *    last lines and elides the middle, so the call, the command and the outcome stay visible;
 * 2. prune the tool results pass 1 left unmasked; only if that is still not enough, prune the
 *    masked ones too (last resort, its own rule).
 */
export const toolMaskPrunePolicy: Policy = {
  id: "tool-mask-prune",
  family: "seed-000",
  source: "seed 000, Baselines: Tool-mask+prune first masks low-signal tool spans, then prunes remaining tool outputs when more budget is needed",
  description:
    "Masks long, repetitive or log-like tool outputs oldest-first, then prunes the remaining tool outputs oldest-first until the view fits targetRatio of the window.",
  params: [
    ...BASELINE_PARAMS,
    { name: "maskMinTokens", default: LOW_SIGNAL_DEFAULTS.minTokens, description: "Outputs shorter than this are never masked (Tracefold constant)." },
    {
      name: "maskLongTokens",
      default: LOW_SIGNAL_DEFAULTS.longTokens,
      description: "Outputs at least this long are low-signal whatever their shape (Tracefold constant).",
    },
    {
      name: "repeatShare",
      default: LOW_SIGNAL_DEFAULTS.repeatShare,
      description: "Low-signal when this share of lines repeats an earlier line, digits normalised.",
    },
    { name: "logShare", default: LOW_SIGNAL_DEFAULTS.logShare, description: "Low-signal when this share of lines looks like log output." },
  ],
  fires: baselineFires,
  decide(ctx, params) {
    const plan = emptyPlan();
    const budget = new Budget(ctx, params);
    const actions: PolicyAction[] = [];
    const thresholds: LowSignalThresholds = {
      minTokens: numParam(params, "maskMinTokens"),
      longTokens: numParam(params, "maskLongTokens"),
      repeatShare: numParam(params, "repeatShare"),
      logShare: numParam(params, "logShare"),
    };
    const tools = editableObjects(ctx).filter((o) => o.kind === "function" && o.part);
    const masked = new Set<string>();
    for (const object of tools) {
      if (budget.isMet) break;
      const part = ctx.session.messages[object.part!.message]!.parts[object.part!.part]!;
      const why = lowSignalReason(partText(part), object.tokens, thresholds);
      if (!why) continue;
      const action = maskObject(ctx, plan, object, `low-signal tool span masked: ${why}`, "tool-mask-prune/mask-low-signal");
      if (action.tokensAfter >= action.tokensBefore) {
        plan.parts.delete(partKey(object.part!));
        continue;
      }
      budget.save(action.tokensBefore - action.tokensAfter);
      actions.push(action);
      masked.add(object.id);
    }
    const maskedCount = actions.length;
    const prune = (lastResort: boolean) => {
      for (const object of tools) {
        if (budget.isMet) return;
        if (masked.has(object.id) !== lastResort) continue;
        const reason = lastResort
          ? "masked tool output pruned: masking alone did not reach the target"
          : "remaining tool output pruned oldest-first under token pressure";
        const { action, saved } = pruneWithCall(ctx, plan, object, reason, lastResort ? "tool-mask-prune/prune-masked" : "tool-mask-prune/prune-oldest");
        const maskAction = lastResort ? actions.findIndex((a) => a.target === object.id) : -1;
        if (maskAction >= 0) {
          // One action per object: the prune replaces the mask record, saving what the mask left.
          budget.save(actions[maskAction]!.tokensAfter + saved - action.tokensBefore);
          actions[maskAction] = action;
        } else {
          budget.save(saved);
          actions.push(action);
        }
      }
    };
    prune(false);
    prune(true);
    const log = [budget.describe(ctx, params), `masked ${maskedCount} low-signal tool outputs; pruned ${actions.filter((a) => a.action === "prune").length}`];
    return budget.report(ctx, { plan, actions, log }, NOT_TOOL_OUTPUT);
  },
};
