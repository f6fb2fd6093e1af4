import type { CutEvaluation } from "@/lib/eval/evaluate-cut";
import { JudgeAnswerError } from "@/lib/eval/evaluate-cut-llm";
import { buildJudgePacket, createLlmJudge } from "@/lib/eval/llm-judge";
import type { LlmClient } from "@/lib/llm/types";
import type { PolicyResult } from "@/lib/policies/types";
import type { LoadedSuiteSession } from "./load-suite-sessions";

/**
 * judge = "llm": replaces the dependency verdict of one unit with the LLM judge's (seed 000
 * Listing 3 over the diff-grounded packet), judging the very policy result the unit's figures come
 * from — handed out by lib/eval's suite loop (`onView`) — so the policy runs once per unit and
 * with planner=llm the judge sees the exact plan whose pruning rate is stored (re-running the
 * policy would ask the planner again and could judge another plan). An unparseable answer, after
 * the judge's one repair retry, throws: the unit is stored as a failure with the judge's located
 * error, and the run goes on.
 */
export async function judgeUnitWithLlm(evaluation: CutEvaluation, suite: Pick<LoadedSuiteSession, "session" | "index">, result: PolicyResult, llm: LlmClient): Promise<CutEvaluation> {
  const { session, index } = suite;
  const outcome = await createLlmJudge(llm, { repairAttempts: 1 }).judge(buildJudgePacket({ session, index, result }));
  if (!outcome.ok) throw new JudgeAnswerError(`the LLM judge's answer did not parse: ${outcome.error.message}`, outcome.attempts.at(-1)?.raw ?? "");
  // The LLM judge names no restores and gives no visible / restorable reading: the dependency
  // judge's net prune and restores do not belong to this verdict (lib/eval toCutEvaluation).
  const { netPruneRate: _net, restores: _restores, restoreTokens: _tokens, ...rest } = evaluation;
  return { ...rest, noImpact: outcome.verdict.noImpact, verdict: outcome.verdict };
}
