import type { ContextIndex } from "../context/objects";
import type { LlmClient } from "../llm/types";
import type { Policy, PolicyParams } from "../policies/types";
import type { Summarizer } from "../summary/types";
import type { Tokenizer } from "../tokens/tokenizer";
import type { Session } from "../trace/model";
import type { CutReason, ReplayCut } from "./cut-protocol";
import { judgeDependencies } from "./dependency-judge";
import { extractDependencies } from "./dependencies";
import { runAtCut, toCutEvaluation } from "./run-at-cut";
import type { DependencySet } from "./types";
import type { JudgeVerdict } from "./verdict-schema";
import type { DependencyMatcher } from "./view-texts";

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
  noImpact: boolean;
  verdict: JudgeVerdict;
}

export interface EvaluateCutInput {
  session: Session;
  index: ContextIndex;
  tokenizer: Tokenizer;
  policy: Policy;
  params?: PolicyParams;
  cut: ReplayCut;
  /** Share of the window the prefix fills at the cut (default 0.9). */
  triggerLevel?: number;
  /** Shared across the policies of one cut; extracted when absent. */
  dependencies?: DependencySet;
  matcher?: DependencyMatcher;
  summarizer?: Summarizer;
  summaryCap?: number;
  llm?: LlmClient;
}

export async function evaluateCut(input: EvaluateCutInput): Promise<CutEvaluation> {
  const { session, index, cut } = input;
  const { window, result } = await runAtCut(input);
  const dependencies = input.dependencies ?? extractDependencies(session, index, cut.cut);
  const verdict = judgeDependencies({ session, index, cut: cut.cut, result, dependencies, ...(input.matcher ? { matcher: input.matcher } : {}) });
  return toCutEvaluation(input, window, result, verdict);
}
