import { clientIdFor, type LlmClient } from "@/lib/llm/types";
import { policyNeedsLlm } from "@/lib/compaction/policies/needs-llm";
import type { EvalSettings } from "./run-settings";

/**
 * The models a run's LLM work goes to, as `<provider>:<model>` (null where no LLM takes part):
 * the planner when a policy plans with planner=llm, the judge when judge=llm. Recorded on the run
 * when it executes, so the run page can say which model planned and which judged — and warn when
 * it is the same model, which then grades its own plans (seed 000 judges with a different model).
 */
export interface RunModels {
  plannerModel: string | null;
  judgeModel: string | null;
}

export function runModels(settings: Pick<EvalSettings, "policies" | "judge">, llm: LlmClient | undefined): RunModels {
  if (!llm) return { plannerModel: null, judgeModel: null };
  const plans = settings.policies.some((p) => policyNeedsLlm(p.id, p.params ?? {}));
  return {
    plannerModel: plans ? clientIdFor(llm, "planner") : null,
    judgeModel: settings.judge === "llm" ? clientIdFor(llm, "judge") : null,
  };
}
