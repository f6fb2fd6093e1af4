import { countViewMessage } from "../../projection/materialize";
import { projectForProviders } from "../../projection/provider-fixes";
import { emptyPlan, type EditPlan, type PolicyAction, type Sidecar } from "../../projection/types";
import type { PolicyContext } from "../types";
import { commitBenefit, type CommitBenefit, type CommitBenefitInput } from "./commit-benefit";
import type { Rehearsal } from "./rehearse";
import { reparentSurvivors, type Reparenting } from "./reparent";
import { isSafeTurnBoundary } from "./safe-boundary";

/**
 * Seed 000's commit (Listing 5, "On safe turn boundary"): an accepted plan is merged into the
 * active view only at a safe turn boundary and, when cache-aware, only when the commit benefit is
 * positive and pruning clears the 0.3 rule. Committing hands over the rehearsed projection —
 * folded payloads in content-addressed sidecars with recovery reminders on their user turns,
 * masks with head/tail hints, prunes removed with their calls — plus the re-parented object map
 * and a provider-normalisation check of the new view. Anything else leaves the prefix unchanged.
 */
export type CommitStatus = "committed" | "pending" | "rejected";

export interface CommitOptions {
  cacheAware: boolean;
  /** Everything the benefit needs except the token counts, which come from the rehearsal. */
  economics: Omit<CommitBenefitInput, "tokensBefore" | "tokensAfter" | "changedTokensAfter">;
}

export interface CommitOutcome {
  status: CommitStatus;
  reason: string;
  plan: EditPlan;
  actions: PolicyAction[];
  sidecars: Sidecar[];
  benefit?: CommitBenefit;
  parentMap: Record<string, Reparenting>;
  /** Messages each provider would receive and the fixes normalisation had to make. */
  provider?: { openAiMessages: number; anthropicMessages: number; fixes: string[] };
}

export function commitPlan(ctx: PolicyContext, rehearsal: Rehearsal, options: CommitOptions): CommitOutcome {
  const unchanged = (status: CommitStatus, reason: string, benefit?: CommitBenefit): CommitOutcome => ({
    status,
    reason,
    plan: emptyPlan(),
    actions: [],
    sidecars: [],
    parentMap: {},
    ...(benefit ? { benefit } : {}),
  });
  if (rehearsal.status === "empty") return unchanged("rejected", "nothing to commit: no valid edit survived rehearsal");
  if (rehearsal.status === "pending") return unchanged("pending", rehearsal.log.at(-1) ?? "below the compression threshold");
  if (!isSafeTurnBoundary(ctx.session, ctx.cut)) return unchanged("pending", "pending: the cut is not a safe turn boundary (a tool call is still open)");

  let benefit: CommitBenefit | undefined;
  if (options.cacheAware) {
    benefit = commitBenefit({
      ...options.economics,
      tokensBefore: rehearsal.tokensBefore,
      tokensAfter: rehearsal.tokensAfter,
      changedTokensAfter: changedTokens(ctx, rehearsal),
    });
    if (!benefit.commitNow) return unchanged("pending", benefit.reason, benefit);
  }
  const projected = projectForProviders(rehearsal.view);
  const provider = {
    openAiMessages: projected.openAiMessages,
    anthropicMessages: projected.anthropicMessages,
    fixes: [...projected.fixes.openai.map((n) => `openai: ${n}`), ...projected.fixes.anthropic.map((n) => `anthropic: ${n}`)],
  };
  return {
    status: "committed",
    reason: benefit ? benefit.reason : "committed at a safe turn boundary (cache-unaware)",
    plan: rehearsal.projection.plan,
    actions: rehearsal.projection.actions,
    sidecars: rehearsal.projection.sidecars,
    ...(benefit ? { benefit } : {}),
    parentMap: reparentSurvivors(ctx, rehearsal.edits, rehearsal.view),
    provider,
  };
}

/** Tokens of the projected view from the first changed message on (what must be re-cached). */
function changedTokens(ctx: PolicyContext, rehearsal: Rehearsal): number {
  const first = rehearsal.firstChangedMessage;
  if (first === undefined) return 0;
  let total = 0;
  let counting = false;
  for (const message of rehearsal.view) {
    if (!counting && (typeof message.origin !== "number" || message.origin >= first)) counting = true;
    if (counting) total += countViewMessage(message, ctx.tokenizer);
  }
  return total;
}
