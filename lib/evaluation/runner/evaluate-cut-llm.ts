import type { CutEvaluation, EvaluateCutInput } from "./evaluate-cut";
import type { LlmJudge } from "../llm-judge/judge";
import { buildJudgePacket, type JudgePacketOptions } from "../llm-judge/packet";
import { runAtCut, toCutEvaluation } from "./run-at-cut";

/**
 * One policy at one replay cut, judged by the LLM judge instead of the dependency judge: the same
 * window, tokenizer and harness as `evaluateCut` (so pruning rates are identical between judges),
 * then seed 000's diff-grounded packet sent to the judge. The result has the `CutEvaluation` shape
 * the metrics read; its verdict carries no dependency evidence, so an impacted cut has no Table 7
 * category (see `toRecord`).
 *
 * The policies themselves get no LLM client: only the judge sees the future, and the compaction
 * under test stays the deterministic one the dependency judge scores.
 */
export interface EvaluateCutLlmInput extends Omit<EvaluateCutInput, "dependencies" | "matcher" | "llm"> {
  judge: LlmJudge;
  packet?: JudgePacketOptions;
}

/** The judge answered, but not in the contract's shape (after any repair attempts). */
export class JudgeAnswerError extends Error {
  constructor(
    message: string,
    /** The judge's last raw answer, for logs. */
    readonly raw: string,
  ) {
    super(message);
    this.name = "JudgeAnswerError";
  }
}

/** Throws `JudgeAnswerError` for a malformed answer; transport errors propagate as the client's. */
export async function evaluateCutWithLlm(input: EvaluateCutLlmInput): Promise<CutEvaluation> {
  const { session, index } = input;
  const { window, result } = await runAtCut(input);
  const outcome = await input.judge.judge(buildJudgePacket({ session, index, result }, input.packet));
  if (!outcome.ok) throw new JudgeAnswerError(`${outcome.judge}: ${outcome.error.message}`, outcome.attempts.at(-1)?.raw ?? "");
  return toCutEvaluation(input, window, result, outcome.verdict);
}
