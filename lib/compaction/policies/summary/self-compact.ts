import type { LlmClient } from "../../../llm/types";
import { numParam } from "../params";
import { dropOldestUntilFits } from "../pretrim/drop-oldest-until-fits";
import type { Policy, PolicyContext, PolicyDecision, PolicyParams } from "../types";
import { compactWithSummary, keepAsIs, summarizerInputBudget } from "./collapse";
import { keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { fitInterval, fitResetAtCut } from "./interval";
import { deterministicRubric, llmRubric, type RubricDecision, type RubricThresholds } from "./self-compact-rubric";
import { latestTurnStart } from "./timeline";

const INSTRUCTIONS =
  "The agent chose to compact here (a subtask is finished, or it is stuck). Summarize so it can continue from a clean context: the goal, results of finished subtasks, what was tried and failed, decisions, constraints, the next steps, and exact identifiers (paths, commands, ids, values, URLs) needed to resume.";

export interface SelfCompactOptions {
  /** Ask this model the rubric (purpose "rubric") instead of the embedded deterministic rubric. */
  rubric?: LlmClient;
}

function thresholds(params: PolicyParams): RubricThresholds {
  return { repeats: numParam(params, "repeatThreshold"), errors: numParam(params, "errorThreshold") };
}

/**
 * Seed 003's Self-Compact (Li et al. 2026): after every turn a rubric R answers COMPACT or
 * CONTINUE — COMPACT when the model finished a subtask or is stuck. On CONTINUE nothing changes
 * (the rubric leaves no trace); on COMPACT the context is replaced by a summary plus the latest
 * turn. The embedded rubric is deterministic (self-compact-rubric.ts); pass an LlmClient to ask a
 * model instead. Every rubric decision is logged. Harness target: see `compactToTarget`.
 */
export function createSelfCompactPolicy(options: SelfCompactOptions = {}): Policy {
  return {
    id: "self-compact",
    family: "seed-003",
    source: "seed 003, Self-Compact: rubric R ∈ {COMPACT, CONTINUE} after each turn (subtask finished, or stuck)",
    description:
      "After every turn a rubric decides COMPACT (subtask finished or stuck) or CONTINUE; on COMPACT everything but the latest turn becomes a summary.",
    params: [
      { name: "repeatThreshold", default: 3, description: "Stuck: the same tool call repeated this many times in a row." },
      { name: "errorThreshold", default: 3, description: "Stuck: this many failed tool results in a row." },
    ],
    callsModel: () => options.rubric !== undefined,
    fires: (ctx, params) => deterministicRubric(ctx.session.messages, ctx.index, ctx.cut, thresholds(params)).verdict === "COMPACT",
    async decide(ctx, params) {
      const embedded = deterministicRubric(ctx.session.messages, ctx.index, ctx.cut, thresholds(params));
      const decision = options.rubric ? await llmRubric(options.rubric, ctx.session.messages, ctx.cut, embedded) : embedded;
      const log = [
        `rubric (${options.rubric ? `model ${options.rubric.id}` : "deterministic"}) at message ${ctx.cut}: ${decision.verdict} — ${decision.reason}`,
      ];
      if (ctx.targetTokens !== undefined) return compactToTarget(ctx, decision, log);
      if (decision.verdict === "CONTINUE") return keepAsIs(log, "CONTINUE: context kept as is", { rubric: decision });
      const compacted = await summarizeBefore(
        ctx,
        latestTurnStart(ctx),
        decision,
        `collapsed into the summary: the rubric answered COMPACT (${decision.reason})`,
        log,
      );
      return { ...compacted, details: { ...compacted.details, rubric: decision } };
    },
  };
}

/** Everything before `tailStart` into one summary, under the rubric's signal. */
function summarizeBefore(
  ctx: PolicyContext,
  tailStart: number,
  decision: RubricDecision,
  reason: string,
  log: string[],
  fit?: SummaryFit,
): Promise<PolicyDecision> {
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart,
    pretrim: [dropOldestUntilFits({ budget: summarizerInputBudget(ctx) })],
    instructions: INSTRUCTIONS,
    rule: `self-compact/${decision.signal}`,
    reason,
    log,
  });
}

/**
 * Under a harness target: COMPACT at the cut resets here (summary + latest turn), the policy's own
 * decision. On CONTINUE the harness still needs the view within the target, so a budget backstop at
 * the target stands in for the context limit a deployed Self-Compact agent hits: replayed from the
 * session start (interval.ts), the view is the summary plus everything since the last time the
 * context reached the target.
 */
async function compactToTarget(ctx: PolicyContext, decision: RubricDecision, log: string[]): Promise<PolicyDecision> {
  const target = ctx.targetTokens!;
  const compact = decision.verdict === "COMPACT";
  const fitFor = (reserve: number) => (compact ? fitResetAtCut(ctx, reserve) : fitInterval(ctx, reserve));
  const reason = compact
    ? `collapsed into the summary: the rubric answered COMPACT (${decision.reason})`
    : `collapsed into the summary: the context last reached the ${target}-token harness target here`;
  const { decision: compacted, fit } = await summarizeWithinTarget(ctx, fitFor, (f) => {
    const note = compact
      ? "COMPACT under a harness target: reset at the cut"
      : `CONTINUE under a harness target: budget backstop at ${target} tokens; replayed from the start it reset ${f.resets} times, the last keeping messages from ${f.tailStart}`;
    return summarizeBefore(ctx, f.tailStart, decision, reason, [...log, note], f);
  });
  const reported = reportSummaryTarget(
    ctx,
    compacted,
    compact ? "COMPACT: reset at the cut" : `budget backstop at ${target} tokens (${fit.resets} resets)`,
    keptTooLarge("the system prompt and the protected latest turn", fit),
  );
  return { ...reported, details: { ...reported.details, rubric: decision } };
}

/** The registered Self-Compact, with the embedded deterministic rubric. */
export const selfCompactPolicy = createSelfCompactPolicy();
