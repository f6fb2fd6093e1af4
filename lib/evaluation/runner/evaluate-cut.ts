import type { Budget } from "../cuts/budget";
import type { PolicyParams, PolicyResult } from "../../compaction/policies/types";
import type { CutReason } from "../cuts/cut-protocol";
import { judgeWithChecks } from "../judge/dependency-judge";
import { extractDependencies } from "../judge/dependencies";
import { runAtCut, toCutEvaluation, type RunAtCutInput } from "./run-at-cut";
import type { CheckedDependency, DependencySet } from "../judge/types";
import type { JudgeVerdict } from "../judge/verdict-schema";
import type { DependencyMatcher } from "../judge/view-texts";

/**
 * One policy at one replay cut, judged: the unit a replay job stores. The window puts the prefix
 * at the trigger level (default 90%), so every policy compacts from the same pressure, with the
 * same tokenizer and the harness's mandatory latest-turn retention (`runPolicy`).
 */
export interface CutEvaluation {
  policy: string;
  params: PolicyParams;
  sessionId: string;
  cut: number;
  reason: CutReason;
  prefixTokens: number;
  window: number;
  tokensAfter: number;
  /** Seed 000's pruning rate at this cut: 1 − after / before. */
  pruneRate: number;
  /** Pruning after the future restores what it needs (see `toCutEvaluation`); absent for an LLM judge. */
  netPruneRate?: number;
  /** Sidecars the future restores and their total cost in tokens (dependency judge). */
  restores?: number;
  restoreTokens?: number;
  /** The matched budget of this unit and its target view size; absent at the policy's own settings. */
  budget?: Budget;
  targetTokens?: number;
  /** The headline verdict (see `JudgeVerdict.noImpact`). */
  noImpact: boolean;
  verdict: JudgeVerdict;
}

export interface EvaluateCutInput extends RunAtCutInput {
  /** Shared across the policies of one cut; extracted when absent. */
  dependencies?: DependencySet;
  matcher?: DependencyMatcher;
}

export async function evaluateCut(input: EvaluateCutInput): Promise<CutEvaluation> {
  return (await evaluateCutWithView(input)).evaluation;
}

/** `evaluateCut` plus the policy's result itself (the view and sidecars a views export writes). */
export async function evaluateCutWithView(input: EvaluateCutInput): Promise<{ evaluation: CutEvaluation; result: PolicyResult; checked: CheckedDependency[] }> {
  const { session, index, cut } = input;
  const { window, result } = await runAtCut(input);
  const dependencies = input.dependencies ?? extractDependencies(session, index, cut.cut);
  const { verdict, checked } = judgeWithChecks({
    session,
    index,
    cut: cut.cut,
    result,
    dependencies,
    countTokens: (text) => input.tokenizer.count(text),
    ...(input.matcher ? { matcher: input.matcher } : {}),
  });
  return { evaluation: toCutEvaluation(input, window, result, verdict), result, checked };
}
