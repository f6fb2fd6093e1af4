import type { ContextIndex } from "../context/objects";
import type { LlmClient } from "../llm/types";
import { runPolicy } from "../policies/run-policy";
import type { Policy, PolicyParams } from "../policies/types";
import type { Summarizer } from "../summary/types";
import type { Tokenizer } from "../tokens/tokenizer";
import type { Session } from "../trace/model";
import { windowForCut, type CutReason, type ReplayCut } from "./cut-protocol";
import { judgeDependencies } from "./dependency-judge";
import { extractDependencies } from "./dependencies";
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
  const { session, index, tokenizer, policy, cut } = input;
  const window = windowForCut(cut.prefixTokens, input.triggerLevel);
  const result = await runPolicy(policy, {
    session,
    index,
    cut: cut.cut,
    window,
    tokenizer,
    ...(input.params ? { params: input.params } : {}),
    ...(input.summarizer ? { summarizer: input.summarizer } : {}),
    ...(input.summaryCap !== undefined ? { summaryCap: input.summaryCap } : {}),
    ...(input.llm ? { llm: input.llm } : {}),
  });
  const dependencies = input.dependencies ?? extractDependencies(session, index, cut.cut);
  const verdict = judgeDependencies({ session, index, cut: cut.cut, result, dependencies, ...(input.matcher ? { matcher: input.matcher } : {}) });
  return {
    policy: policy.id,
    params: result.params,
    sessionId: session.id,
    cut: cut.cut,
    reason: cut.reason,
    prefixTokens: result.tokensBefore,
    window,
    tokensAfter: result.tokensAfter,
    pruneRate: result.pruneRate,
    noImpact: verdict.noImpact,
    verdict,
  };
}
