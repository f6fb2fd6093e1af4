import { numParam } from "../params";
import { withTargetReport } from "../shared/target";
import { defaultBudgetFires } from "../shared/triggers";
import type { PolicyContext, PolicyDecision, PolicyParamSpec, PolicyParams } from "../types";

/**
 * What the four seed 000 baselines (oldest-turn, tool-prune, tool-mask+prune, hybrid) share.
 * Seed 000 ("Baselines") replays them "at the same cut points with the same token accounting and
 * mandatory last-turn retention" but gives no budget numbers, so Tracefold fixes one contract for
 * all four: the budget trigger fires when the prefix reaches `triggerRatio` (0.9) of the window —
 * the replay protocol's pressure level — and, compacting at a cut, each baseline edits oldest-first
 * until its estimated view is at most `targetRatio` (0.3) of the window or it runs out of editable
 * objects. `decide` always compacts (the replay assumes compaction happens at the cut); `fires`
 * is what cut selection asks.
 */
export const BASELINE_PARAMS: readonly PolicyParamSpec[] = [
  { name: "targetRatio", default: 0.3, description: "Compact until the view is at most this share of the window." },
  { name: "triggerRatio", default: 0.9, description: "Budget trigger: fire when the prefix reaches this share of the window." },
];

/** The seed 000 budget trigger (shared with every policy that does not define its own). */
export function baselineFires(ctx: { prefixTokens: number; window: number }, params: PolicyParams): boolean {
  return defaultBudgetFires(ctx, params);
}

/**
 * A running estimate of the view's tokens while a baseline edits oldest-first. It starts from the
 * index's prefix sum and moves by each action's before/after counts, so a decision never
 * re-tokenises the prefix; the materialised view is counted exactly afterwards by the harness.
 */
export class Budget {
  readonly target: number;
  tokens: number;

  constructor(ctx: PolicyContext, params: PolicyParams) {
    // The harness's target view size (matched budgets) replaces the policy's own ratio.
    this.target = ctx.targetTokens ?? numParam(params, "targetRatio") * ctx.window;
    this.tokens = ctx.prefixTokens;
  }

  get isMet(): boolean {
    return this.tokens <= this.target;
  }

  /** Books the tokens an edit removed from the view (see object-costs.ts for what each edit saves). */
  save(tokens: number): void {
    this.tokens -= tokens;
  }

  /**
   * The harness-target report (shared/target.ts) for a finished decision: the estimate is this
   * running count, `why` what the baseline may not edit. A decision without a target is unchanged.
   */
  report(ctx: PolicyContext, decision: PolicyDecision, why: string): PolicyDecision {
    return withTargetReport(ctx, decision, this.tokens, "the target replaces targetRatio × window", why);
  }

  describe(ctx: PolicyContext, params: PolicyParams): string {
    const share = ctx.window > 0 ? ((100 * ctx.prefixTokens) / ctx.window).toFixed(1) : "∞";
    const fired = baselineFires(ctx, params) ? "fired" : "not reached";
    const target = ctx.targetTokens !== undefined ? "the harness's target" : `${numParam(params, "targetRatio")} × window`;
    return `prefix ${ctx.prefixTokens} tokens = ${share}% of window ${ctx.window} (budget trigger at ${numParam(params, "triggerRatio") * 100}%: ${fired}); target ${Math.round(this.target)} tokens (${target}); estimated view ${Math.round(this.tokens)}`;
  }
}
