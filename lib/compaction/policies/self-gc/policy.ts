import { parsePlan } from "../../planner/parse-plan";
import { emptyPlan } from "../../projection/types";
import { withTargetReport } from "../shared/target";
import type { Policy, PolicyContext, PolicyDecision, PolicyParams } from "../types";
import { choosePlanner } from "./choose-planner";
import { commitPlan } from "./commit";
import { readSelfGcSettings, SELF_GC_PARAMS, type SelfGcSettings } from "./params";
import { rehearsePlan } from "./rehearse";

/**
 * Self-GC (seed 000): plan → parse → rehearse → commit. A side-channel planner proposes fold /
 * mask / prune over indexed objects; the harness parses strictly, rehearses on a copy (drops
 * invalid and cut-turn edits, normalises overlaps, checks the 30% compression threshold), and
 * commits only at a safe turn boundary when the cache-aware commit benefit is positive. A plan
 * that fails any step leaves the prefix unchanged, with the reason and numbers in details.
 * Under a harness target the planner aims at the target share and the commit gates step aside
 * (withHarnessTarget); the plan still holds only what the planner's rules find safe to remove, so a
 * shortfall is reported (details.target) with the reason.
 */
export const selfGcPolicy: Policy = {
  id: "self-gc",
  family: "self-gc",
  source: "seed 000: Self-GC — indexed objects, side-channel planner, rehearsal, sidecar fold, cache-aware commit",
  description:
    "A planner proposes fold/mask/prune over indexed objects; the harness rehearses the plan and commits it only when it saves enough and pays for the cache break.",
  params: SELF_GC_PARAMS,
  // Only planner=llm calls the model; the embedded rule-based planner is synchronous and instant.
  callsModel: (params) => params.planner === "llm",
  decide: decideSelfGc,
};

async function decideSelfGc(ctx: PolicyContext, params: PolicyParams): Promise<PolicyDecision> {
  const settings = withHarnessTarget(ctx, readSelfGcSettings(params));
  const planner = choosePlanner(ctx, settings);
  const targetShare = ctx.targetTokens !== undefined ? targetShareOf(ctx) : undefined;
  const output = await planner.plan({
    session: ctx.session,
    index: ctx.index,
    cut: ctx.cut,
    protect: ctx.protect,
    tokenizer: ctx.tokenizer,
    pointers: ctx.pointers,
    ...(targetShare !== undefined ? { targetShare } : {}),
  });
  const parsed = parsePlan(output.xml);
  const plannerInfo = {
    id: output.planner,
    ...(output.model ? { model: output.model } : {}),
    ...(output.latencyMs !== undefined ? { latencyMs: output.latencyMs } : {}),
    ...(output.usage ? { usage: output.usage } : {}),
    ...(output.attempts !== undefined ? { attempts: output.attempts } : {}),
  };
  const log = [`planner ${output.planner} returned ${output.xml.length} chars of XML`];
  for (const e of parsed.errors) log.push(`plan ${e.severity} ${e.code} at ${e.line}:${e.column}: ${e.message}`);
  if (!parsed.plan) {
    log.push("plan rejected: the planner's XML does not follow the schema; the prefix is unchanged");
    const rejected = {
      plan: emptyPlan(),
      actions: [],
      log,
      details: { planner: plannerInfo, xml: output.xml, parseErrors: parsed.errors, commit: { status: "rejected", reason: "the planner's XML did not parse" } },
    };
    return withTargetReport(ctx, rejected, ctx.prefixTokens, "no plan", "the planner's XML did not parse, so nothing was edited");
  }
  const rehearsal = rehearsePlan(ctx, parsed.plan, settings.compressionThreshold);
  const outcome = commitPlan(ctx, rehearsal, {
    cacheAware: settings.cacheAware,
    economics: {
      nFuture: settings.nFuture,
      cacheHitRate: settings.cacheHitRate,
      prices: settings.prices,
      gcCost: settings.planner === "llm" ? (output.usage?.costUsd ?? settings.plannerCallCost) : 0,
      minPruneRate: settings.commitMinPrune,
    },
  });
  log.push(...rehearsal.log, `commit ${outcome.status}: ${outcome.reason}`);
  const committed = outcome.status === "committed";
  const why = committed
    ? `the planner aims at the target share with its own size estimates and proposes only what its rules find safe to remove; its ${rehearsal.edits.length} edits stop ${rehearsal.tokensAfter - (ctx.targetTokens ?? 0)} tokens short`
    : `commit ${outcome.status}: ${outcome.reason}`;
  return withTargetReport(
    ctx,
    {
      plan: outcome.plan,
      actions: outcome.actions,
      rejected: rehearsal.dropped.map((d) => ({ target: d.target, reason: `${d.action}: ${d.reason}` })),
      sidecars: outcome.sidecars,
      log,
      details: {
        planner: plannerInfo,
        xml: output.xml,
        parseErrors: parsed.errors,
        summary: parsed.plan.summary,
        rehearsal: {
          status: rehearsal.status,
          tokensBefore: rehearsal.tokensBefore,
          tokensAfter: rehearsal.tokensAfter,
          pruneRate: rehearsal.pruneRate,
          threshold: rehearsal.threshold,
          accepted: rehearsal.edits.map((e) => ({ target: e.id, action: e.action, reason: e.reason })),
          dropped: rehearsal.dropped.map((d) => ({ target: d.target, action: d.action, reason: d.reason })),
        },
        commit: {
          status: outcome.status,
          reason: outcome.reason,
          ...(outcome.benefit ? { benefit: outcome.benefit } : {}),
          parentMap: outcome.parentMap,
          ...(outcome.provider ? { provider: outcome.provider } : {}),
        },
      },
    },
    committed ? rehearsal.tokensAfter : ctx.prefixTokens,
    `planner target share ${Math.round(100 * (targetShare ?? 0))}%`,
    why,
  );
}

/** Share of the prefix the harness's target view size asks to remove (0 when the prefix already fits). */
function targetShareOf(ctx: PolicyContext): number {
  if (ctx.prefixTokens <= 0 || ctx.targetTokens === undefined) return 0;
  return Math.min(0.95, Math.max(0, 1 - ctx.targetTokens / ctx.prefixTokens));
}

/**
 * With a harness target (matched budgets, sweeps) the harness has decided that compaction happens
 * at this cut and how far, as it does for every policy: self-gc's own gates on *whether* to commit
 * now (the compression threshold, the 0.3 rule, the cache-aware benefit) step aside, and the
 * planner aims at the target instead of its own compression bias.
 */
function withHarnessTarget(ctx: PolicyContext, settings: SelfGcSettings): SelfGcSettings {
  if (ctx.targetTokens === undefined) return settings;
  return { ...settings, compressionThreshold: 0, commitMinPrune: 0, cacheAware: false };
}
