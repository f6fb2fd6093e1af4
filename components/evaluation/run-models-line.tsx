import type { EvalRunSummary } from "./eval-types";

/**
 * Which model planned and which judged a run, as recorded when it executed (server/evaluation/
 * run-models.ts), with a warning when both are the same model: a judge grading its own planner's
 * plans is biased toward them (seed 000 judges with a different model). Before the run starts the
 * models are not known yet and the line says so.
 */
export function RunModelsLine({ run }: { run: Pick<EvalRunSummary, "status" | "settings" | "plannerModel" | "judgeModel"> }) {
  const started = run.status !== "queued" || run.plannerModel !== null || run.judgeModel !== null;
  const usesLlmJudge = run.settings?.judge === "llm";
  const judge = usesLlmJudge ? (
    run.judgeModel ? (
      <span className="mono">{run.judgeModel}</span>
    ) : started ? (
      "LLM judge (model not recorded)"
    ) : (
      "LLM judge (model chosen when the run starts)"
    )
  ) : (
    "dependency judge (deterministic, no model)"
  );
  // The display's own reading of planner=llm (the recorded model is the authority once the run ran).
  const usesLlmPlanner = run.settings?.policies.some((p) => p.params?.planner === "llm") === true;
  const planner = run.plannerModel ? (
    <span className="mono">{run.plannerModel}</span>
  ) : usesLlmPlanner ? (
    started ? (
      "LLM planner (model not recorded)"
    ) : (
      "LLM planner (model chosen when the run starts)"
    )
  ) : (
    "no LLM planner"
  );
  const selfJudged = run.plannerModel !== null && run.plannerModel === run.judgeModel;
  return (
    <>
      <p className="faint" data-testid="run-models">
        Judged by {judge} · planned by {planner}
      </p>
      {selfJudged ? (
        <div className="alert alert-error" role="note" data-testid="run-self-judge">
          The judge model is the planner model ({run.judgeModel}): it grades its own plans, which biases the verdicts toward them. Set a different judge model
          on Admin → Settings and run the evaluation again.
        </div>
      ) : null}
    </>
  );
}
