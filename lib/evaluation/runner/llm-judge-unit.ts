import type { CutEvaluation } from "./evaluate-cut";
import { JudgeAnswerError } from "./evaluate-cut-llm";
import type { JudgedUnitView } from "./evaluate-suite";
import type { LlmJudge } from "../llm-judge/judge";
import { buildJudgePacket, type JudgePacketOptions } from "../llm-judge/packet";

/**
 * The LLM judge as the suite loop's `judge` (lib/evaluation/runner/evaluate-suite.ts): the packet is built from
 * the unit's own policy result, so the policy — and an LLM planner — runs once per unit and the
 * verdict is about the plan whose figures are stored. One engine for the CLI and the studio. It
 * lives beside the runners, not in llm-judge/, which must not reach policy code (independence test).
 *
 * The LLM verdict replaces the dependency verdict; it names no restores and gives no visible /
 * restorable reading, so the dependency judge's net prune and restores are dropped (as
 * `toCutEvaluation` does for a verdict without evidence). A malformed answer (after the judge's
 * repair attempts) throws `JudgeAnswerError`: the unit fails and the run goes on; transport errors
 * propagate as the client's (the caller's `isFatal` decides).
 */
export function judgeUnitsWith(judge: LlmJudge, packet?: JudgePacketOptions): (view: JudgedUnitView) => Promise<CutEvaluation> {
  return async ({ session, index, result, evaluation }) => {
    const outcome = await judge.judge(buildJudgePacket({ session, index, result }, packet));
    if (!outcome.ok) throw new JudgeAnswerError(`the LLM judge's answer did not parse: ${outcome.error.message}`, outcome.attempts.at(-1)?.raw ?? "");
    const { netPruneRate: _net, restores: _restores, restoreTokens: _tokens, ...rest } = evaluation;
    return { ...rest, noImpact: outcome.verdict.noImpact, verdict: outcome.verdict };
  };
}
