import type { LlmClient } from "../../llm/types";
import { numParam } from "../params";
import { dropOldestUntilFits } from "../pretrim/drop-oldest-until-fits";
import type { Policy, PolicyParams } from "../types";
import { compactWithSummary, keepAsIs, summarizerInputBudget } from "./collapse";
import { deterministicRubric, llmRubric, type RubricThresholds } from "./self-compact-rubric";
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
 * model instead. Every rubric decision is logged.
 */
export function createSelfCompactPolicy(options: SelfCompactOptions = {}): Policy {
  return {
    id: "self-compact",
    family: "seed-003",
    source: "seed 003, Self-Compact: rubric R ∈ {COMPACT, CONTINUE} after each turn (subtask finished, or stuck)",
    description: "After every turn a rubric decides COMPACT (subtask finished or stuck) or CONTINUE; on COMPACT everything but the latest turn becomes a summary.",
    params: [
      { name: "repeatThreshold", default: 3, description: "Stuck: the same tool call repeated this many times in a row." },
      { name: "errorThreshold", default: 3, description: "Stuck: this many failed tool results in a row." },
    ],
    callsModel: () => options.rubric !== undefined,
    fires: (ctx, params) => deterministicRubric(ctx.session.messages, ctx.index, ctx.cut, thresholds(params)).verdict === "COMPACT",
    async decide(ctx, params) {
      const embedded = deterministicRubric(ctx.session.messages, ctx.index, ctx.cut, thresholds(params));
      const decision = options.rubric ? await llmRubric(options.rubric, ctx.session.messages, ctx.cut, embedded) : embedded;
      const log = [`rubric (${options.rubric ? `model ${options.rubric.id}` : "deterministic"}) at message ${ctx.cut}: ${decision.verdict} — ${decision.reason}`];
      if (decision.verdict === "CONTINUE") return keepAsIs(log, "CONTINUE: context kept as is", { rubric: decision });
      const compacted = await compactWithSummary(ctx, {
        tailStart: latestTurnStart(ctx),
        pretrim: [dropOldestUntilFits({ budget: summarizerInputBudget(ctx) })],
        instructions: INSTRUCTIONS,
        rule: `self-compact/${decision.signal}`,
        reason: `collapsed into the summary: the rubric answered COMPACT (${decision.reason})`,
        log,
      });
      return { ...compacted, details: { ...compacted.details, rubric: decision } };
    },
  };
}

/** The registered Self-Compact, with the embedded deterministic rubric. */
export const selfCompactPolicy = createSelfCompactPolicy();
