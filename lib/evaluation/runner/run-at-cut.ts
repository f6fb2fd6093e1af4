import type { ContextIndex } from "../../compaction/context/objects";
import type { LlmClient } from "../../llm/types";
import { runPolicy } from "../../compaction/policies/run-policy";
import type { Policy, PolicyParams, PolicyResult } from "../../compaction/policies/types";
import type { Summarizer } from "../../compaction/summarizer/types";
import type { Tokenizer } from "../../tokens/tokenizer";
import type { Session } from "../../trace/model";
import type { PointerStyle } from "../../compaction/projection/pointers";
import type { Budget } from "../cuts/budget";
import { windowForCut, type ReplayCut } from "../cuts/cut-protocol";
import type { CutEvaluation } from "./evaluate-cut";
import type { JudgeVerdict } from "../judge/verdict-schema";

/**
 * The replay protocol's one way to run a policy at a cut: the window puts the prefix at the
 * trigger level (default 90%), with the harness's mandatory latest-turn retention (`runPolicy`).
 * Both judges go through it, so pruning rates never differ between them.
 */
export interface RunAtCutInput {
  session: Session;
  index: ContextIndex;
  tokenizer: Tokenizer;
  policy: Policy;
  params?: PolicyParams;
  cut: ReplayCut;
  triggerLevel?: number;
  summarizer?: Summarizer;
  summaryCap?: number;
  llm?: LlmClient;
  /** Pointer style of every fold (harness setting). */
  pointers?: PointerStyle;
  /** The unit's matched budget and the target view size it resolves to at this cut. */
  budget?: Budget;
  targetTokens?: number;
}

export async function runAtCut(input: RunAtCutInput): Promise<{ window: number; result: PolicyResult }> {
  const window = windowForCut(input.cut.prefixTokens, input.triggerLevel);
  const result = await runPolicy(input.policy, {
    session: input.session,
    index: input.index,
    cut: input.cut.cut,
    window,
    tokenizer: input.tokenizer,
    ...(input.params ? { params: input.params } : {}),
    ...(input.summarizer ? { summarizer: input.summarizer } : {}),
    ...(input.summaryCap !== undefined ? { summaryCap: input.summaryCap } : {}),
    ...(input.llm ? { llm: input.llm } : {}),
    ...(input.pointers ? { pointers: input.pointers } : {}),
    ...(input.targetTokens !== undefined ? { targetTokens: input.targetTokens } : {}),
  });
  return { window, result };
}

/**
 * The stored unit of a judged cut, whichever judge gave `verdict`. `netPruneRate` charges the
 * restores the judge found the future needs (each sidecar once: its tokens plus one call) against
 * the pruning: 1 − (after + restores) / before; undefined when the judge names no restores (an LLM
 * judge), so no figure pretends restores were free.
 */
export function toCutEvaluation(input: RunAtCutInput, window: number, result: PolicyResult, verdict: JudgeVerdict): CutEvaluation {
  const restores = verdict.evidence?.restores;
  const restoreTokens = restores?.reduce((sum, r) => sum + r.cost, 0);
  return {
    ...(input.budget ? { budget: input.budget } : {}),
    ...(input.targetTokens !== undefined ? { targetTokens: input.targetTokens } : {}),
    ...(restores
      ? {
          restores: restores.length,
          restoreTokens: restoreTokens!,
          netPruneRate: result.tokensBefore > 0 ? 1 - (result.tokensAfter + restoreTokens!) / result.tokensBefore : 0,
        }
      : {}),
    policy: input.policy.id,
    params: result.params,
    sessionId: input.session.id,
    cut: input.cut.cut,
    reason: input.cut.reason,
    prefixTokens: result.tokensBefore,
    window,
    tokensAfter: result.tokensAfter,
    pruneRate: result.pruneRate,
    noImpact: verdict.noImpact,
    verdict,
  };
}
