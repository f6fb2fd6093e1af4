import { createLlmPlanner } from "../../planner/llm-planner";
import { createRuleBasedPlanner } from "../../planner/rule-based/planner";
import type { Planner } from "../../planner/types";
import type { PolicyContext } from "../types";
import type { SelfGcSettings } from "./params";

/** planner=llm was requested but the run has no model client (no endpoint configured). */
export class PlannerUnavailableError extends Error {
  readonly code = "planner_unavailable";
  constructor(message: string) {
    super(message);
    this.name = "PlannerUnavailableError";
  }
}

/**
 * Picks the side-channel planner (seed 000): the embedded rule-based planner by default, or the
 * LLM planner over the client the caller injected. Never falls back silently: asking for the LLM
 * planner without a client is an error, so a run never reports rule-based numbers as a model's.
 */
export function choosePlanner(ctx: PolicyContext, settings: SelfGcSettings): Planner {
  if (settings.planner === "rule-based") return createRuleBasedPlanner(settings.rules);
  if (!ctx.llm) {
    throw new PlannerUnavailableError(
      "self-gc planner=llm needs a model client: configure TRACEFOLD_LLM_PROVIDER, TRACEFOLD_LLM_BASE_URL, TRACEFOLD_LLM_API_KEY and TRACEFOLD_LLM_MODEL, or use planner=rule-based",
    );
  }
  return createLlmPlanner(ctx.llm, { maxTokens: settings.plannerMaxTokens });
}
