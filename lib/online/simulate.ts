import { buildContextIndex, type ContextIndex } from "../context/objects";
import { safeCutPoints } from "../policies/cut-points";
import { resolveParams } from "../policies/params";
import { runPolicy } from "../policies/run-policy";
import { defaultBudgetFires } from "../policies/shared/triggers";
import type { Policy, PolicyParams } from "../policies/types";
import type { Summarizer } from "../summary/types";
import type { Tokenizer } from "../tokens/tokenizer";
import type { Session } from "../trace/model";
import { callCacheTerms, commitBenefits, type CallTokens, type CompactionEvent } from "./simulate-cache";
import { callStarts, continueFromView } from "./simulate-view";
import { DEFAULT_PRICES, type Prices } from "./cost";

export interface SimulateOptions {
  /** The model's context window in tokens (the policy's trigger reads the prefix against it). */
  window: number;
  tokenizer: Tokenizer;
  params?: PolicyParams;
  summaryCap?: number;
  summarizer?: Summarizer;
  /** Provider cache lifetime; a gap longer than this between calls empties the cache (default 5 min; Infinity: never). */
  cacheTtlMs?: number;
  prices?: Prices;
  /** L_GC of seed 000: input tokens of a side-channel call per commit (planner/summariser), billed at the input price. */
  gcOverheadTokens?: number;
}

export interface SimulatedCall {
  /** Index in the original session of the assistant message the call produced. */
  message: number;
  timestamp?: string;
  without: CallTokens;
  with: CallTokens;
  /** A compaction was committed right before this call (its cached prefix is gone). */
  compacted: boolean;
}

export interface SimulationResult {
  sessionId: string;
  policy: string;
  window: number;
  calls: SimulatedCall[];
  compactions: CompactionEvent[];
  meanInput: { without: number; with: number };
  /** 100 × (1 − mean with / mean without). */
  reductionPct: number;
}

/**
 * Replays one session in time order, as a harness running `policy` would have: at every model call
 * that starts at a safe cut, the policy's own trigger is read against the context the model would
 * actually get (the compacted prefix plus everything after it); when it fires and the projection
 * is smaller, the compaction is committed and the session continues from the compacted context.
 *
 * Produces the per-call prompt series without and with the policy, with the prompt-cache terms
 * (a commit rewrites the prefix: that call reads 0 cached tokens and writes its whole prompt).
 * Token counts are Tracefold's tokenizer estimates on both sides, so the two series compare like
 * for like; native compactions recorded in the trace are not replayed on either side.
 *
 * Cost: prefix sums between commits (O(1) per call) and one index rebuild per commit, so
 * O(messages × (1 + commits)).
 */
export async function simulateSession(session: Session, policy: Policy, options: SimulateOptions): Promise<SimulationResult> {
  const params = resolveParams(policy, options.params ?? {});
  const original = buildContextIndex(session, options.tokenizer);
  let work = session;
  let index: ContextIndex = original;
  let safe = new Set(safeCutPoints(work));
  let base = 0;
  let headLength = 0;
  const ttl = options.cacheTtlMs ?? 5 * 60_000;
  const calls: SimulatedCall[] = [];
  const compactionAt: { call: number; tokensBefore: number; tokensAfter: number; actions: number }[] = [];
  let previous: { without: number; with: number; at?: number } | undefined;

  for (const k of callStarts(session)) {
    if (k === 0) continue;
    let cut = k - base + headLength;
    let compacted = false;
    const prefixTokens = index.prefixTokens[cut]!;
    const ctx = { session: work, index, cut, window: options.window, tokenizer: options.tokenizer, prefixTokens, summaryCap: options.summaryCap ?? 2_000 };
    if (safe.has(cut) && (policy.fires ? policy.fires(ctx, params) : defaultBudgetFires(ctx, params))) {
      const result = await runPolicy(policy, { session: work, index, cut, window: options.window, tokenizer: options.tokenizer, params, ...(options.summaryCap !== undefined ? { summaryCap: options.summaryCap } : {}), ...(options.summarizer ? { summarizer: options.summarizer } : {}) });
      if (result.tokensAfter < result.tokensBefore) {
        work = continueFromView(work, cut, result.view);
        index = buildContextIndex(work, options.tokenizer);
        safe = new Set(safeCutPoints(work));
        base = k;
        headLength = result.view.length;
        cut = headLength;
        compacted = true;
        compactionAt.push({ call: calls.length, tokensBefore: result.tokensBefore, tokensAfter: index.prefixTokens[cut]!, actions: result.actions.length });
      }
    }
    const at = session.messages[k]!.timestamp ? Date.parse(session.messages[k]!.timestamp!) : undefined;
    const expired = previous !== undefined && at !== undefined && previous.at !== undefined && at - previous.at > ttl;
    const without = callCacheTerms(original.prefixTokens[k]!, expired ? undefined : previous?.without);
    const withPolicy = callCacheTerms(index.prefixTokens[cut]!, expired || compacted ? undefined : previous?.with);
    calls.push({ message: k, ...(session.messages[k]!.timestamp ? { timestamp: session.messages[k]!.timestamp } : {}), without, with: withPolicy, compacted });
    previous = { without: without.input, with: withPolicy.input, ...(at !== undefined && Number.isFinite(at) ? { at } : {}) };
  }
  const mean = (pick: (c: SimulatedCall) => number) => (calls.length ? calls.reduce((a, c) => a + pick(c), 0) / calls.length : Number.NaN);
  const meanInput = { without: mean((c) => c.without.input), with: mean((c) => c.with.input) };
  return {
    sessionId: session.id,
    policy: policy.id,
    window: options.window,
    calls,
    compactions: commitBenefits(calls, compactionAt, options.prices ?? DEFAULT_PRICES, options.gcOverheadTokens ?? 0),
    meanInput,
    reductionPct: 100 * (1 - meanInput.with / meanInput.without),
  };
}
