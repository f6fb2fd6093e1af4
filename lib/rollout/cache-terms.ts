import { billedCost, type Prices } from "./billed-cost";

/** One call's prompt with its cache terms: `input = cached + write` (the simulator has no uncached remainder). */
export interface CallTokens {
  input: number;
  cached: number;
  write: number;
}

/**
 * Incremental prompt caching as providers do it for agents: the previous call's prompt is a prefix
 * of this one and is read from cache; the new suffix is written. Without a usable previous prompt
 * (first call, expired cache, or a rewritten prefix after a compaction) the whole prompt is written.
 */
export function callCacheTerms(input: number, previousInput: number | undefined): CallTokens {
  const cached = previousInput !== undefined && previousInput <= input ? previousInput : 0;
  return { input, cached, write: input - cached };
}

/**
 * One committed compaction with seed 000's CommitBenefit terms, measured on the replay:
 * CommitBenefit ≈ N_future (C − C′) − L_cache_break − L_GC, in USD at the given prices.
 * `futureCalls` runs from the commit to the next commit (or the session's end).
 */
export interface CompactionEvent {
  /** Index into the simulation's calls of the first call after the commit. */
  call: number;
  message: number;
  tokensBefore: number;
  tokensAfter: number;
  actions: number;
  futureCalls: number;
  /** C and C′: mean prompt tokens over the future calls, without and with the policy. */
  meanInputBefore: number;
  meanInputAfter: number;
  /** Prompt tokens that would have been cache reads and are written instead at the commit call. */
  cacheBreakTokens: number;
  /**
   * USD: `savingsUsd` is the future calls' bill without minus with the policy, before the cache
   * break (N_future (C − C′) at cache-aware prices); `cacheBreakUsd` re-writing the tokens that
   * would have been cache reads; `gcUsd` the side-channel call; `commitBenefitUsd` the net.
   */
  savingsUsd: number;
  cacheBreakUsd: number;
  gcUsd: number;
  commitBenefitUsd: number;
}

export function commitBenefits(
  calls: readonly { message: number; without: CallTokens; with: CallTokens }[],
  commits: readonly { call: number; tokensBefore: number; tokensAfter: number; actions: number }[],
  prices: Prices,
  gcOverheadTokens: number,
): CompactionEvent[] {
  const cost = (t: CallTokens) => billedCost({ calls: 1, input: t.input, cached: t.cached, write: t.write, output: 0 }, prices);
  return commits.map((commit, i) => {
    const end = commits[i + 1]?.call ?? calls.length;
    const span = calls.slice(commit.call, end);
    let before = 0,
      after = 0,
      netUsd = 0;
    for (const c of span) {
      before += c.without.input;
      after += c.with.input;
      netUsd += cost(c.without) - cost(c.with);
    }
    const first = span[0]!;
    const cacheBreakTokens = Math.min(first.without.cached, first.with.input);
    // At cached prices the kept tokens would have cost cachedInput; written again they cost cacheWrite.
    const cacheBreakUsd = (cacheBreakTokens * (prices.cacheWrite - prices.cachedInput)) / 1e6;
    const gcUsd = (gcOverheadTokens * prices.input) / 1e6;
    return {
      call: commit.call,
      message: first.message,
      tokensBefore: commit.tokensBefore,
      tokensAfter: commit.tokensAfter,
      actions: commit.actions,
      futureCalls: span.length,
      meanInputBefore: before / span.length,
      meanInputAfter: after / span.length,
      cacheBreakTokens,
      savingsUsd: netUsd + cacheBreakUsd,
      cacheBreakUsd,
      gcUsd,
      commitBenefitUsd: netUsd - gcUsd,
    };
  });
}
