import type { CutEvaluation } from "@/lib/eval/evaluate-cut";
import { JudgeAnswerError } from "@/lib/eval/evaluate-cut-llm";
import type { SuitePolicy } from "@/lib/eval/evaluate-suite";
import { buildJudgePacket, createLlmJudge } from "@/lib/eval/llm-judge";
import type { LlmClient } from "@/lib/llm/types";
import type { PointerStyle } from "@/lib/projection/pointers";
import { runPolicy } from "@/lib/policies/run-policy";
import type { LoadedSuiteSession } from "./load-suite-sessions";

/**
 * judge = "llm": replaces the dependency verdict of one unit with the LLM judge's (seed 000
 * Listing 3 over the diff-grounded packet). lib/eval's suite loop judges deterministically and does
 * not hand out the policy's view, so the policy is re-run here with exactly the inputs the unit
 * used (same cut, window, params, tokenizer, pointer style and target size — policies are
 * deterministic), and the packet is built
 * from that result. An unparseable answer throws: the unit is stored as a failure with the
 * judge's located error, and the run goes on.
 */
export async function rejudgeWithLlm(evaluation: CutEvaluation, suite: LoadedSuiteSession, entry: SuitePolicy, llm: LlmClient, pointers?: PointerStyle): Promise<CutEvaluation> {
  const { session, index, tokenizer } = suite;
  const result = await runPolicy(entry.policy, {
    session,
    index,
    cut: evaluation.cut,
    window: evaluation.window,
    tokenizer,
    params: evaluation.params,
    llm,
    ...(pointers ? { pointers } : {}),
    ...(evaluation.targetTokens !== undefined ? { targetTokens: evaluation.targetTokens } : {}),
  });
  const outcome = await createLlmJudge(llm, { repairAttempts: 1 }).judge(buildJudgePacket({ session, index, result }));
  if (!outcome.ok) throw new JudgeAnswerError(`the LLM judge's answer did not parse: ${outcome.error.message}`, outcome.attempts.at(-1)?.raw ?? "");
  // The LLM judge names no restores and gives no visible / restorable reading: the dependency
  // judge's net prune and restores do not belong to this verdict (lib/eval toCutEvaluation).
  const { netPruneRate: _net, restores: _restores, restoreTokens: _tokens, ...rest } = evaluation;
  return { ...rest, noImpact: outcome.verdict.noImpact, verdict: outcome.verdict };
}
