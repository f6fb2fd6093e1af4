/**
 * Cache-aware commit (seed 000, "Recoverability and Cache-Aware Commit"):
 *
 *   CommitBenefit ≈ N_future · (C − C′) − L_cache_break − L_GC
 *
 * - C, C′: average input cost of one future call before and after the commit. A call reads a
 *   `cacheHitRate` share of its prefix at the cache-read price and the rest at the input price.
 * - N_future: how many future calls are expected to reuse the prefix before the next compaction
 *   or cache expiry.
 * - L_cache_break: the view from the first changed message on must be written to the cache again
 *   once: those tokens cost the cache-write price instead of the cache-read price. The size
 *   change itself is already in C − C′, so only the price difference is charged here.
 * - L_GC: the planner call (zero for the embedded rule-based planner).
 *
 * The seed's deployment regression found immediate commit positive-value once pruning exceeds 0.3;
 * that operating rule is applied on top of the formula (`minPruneRate`), not instead of it. Prices
 * are USD per million tokens.
 */
export interface CachePrices {
  inputPerMTok: number;
  cacheReadPerMTok: number;
  cacheWritePerMTok: number;
}

/** Anthropic-style list prices (input $3, cache read $0.30, cache write $3.75 per MTok). */
export const DEFAULT_CACHE_PRICES: CachePrices = { inputPerMTok: 3, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 };

/** The seed's 0.3 rule: below this pruning rate a plan stays pending. */
export const DEFAULT_MIN_COMMIT_PRUNE = 0.3;

export interface CommitBenefitInput {
  tokensBefore: number;
  tokensAfter: number;
  /** Tokens of the projected view from the first changed message to its end. */
  changedTokensAfter: number;
  nFuture: number;
  cacheHitRate: number;
  prices: CachePrices;
  /** L_GC in USD. */
  gcCost: number;
  minPruneRate: number;
}

export interface CommitBenefit {
  costBefore: number;
  costAfter: number;
  futureSavings: number;
  cacheBreakLoss: number;
  gcLoss: number;
  benefit: number;
  pruneRate: number;
  commitNow: boolean;
  reason: string;
}

export function commitBenefit(input: CommitBenefitInput): CommitBenefit {
  const { prices } = input;
  const hit = Math.min(1, Math.max(0, input.cacheHitRate));
  const perToken = (hit * prices.cacheReadPerMTok + (1 - hit) * prices.inputPerMTok) / 1e6;
  const costBefore = input.tokensBefore * perToken;
  const costAfter = input.tokensAfter * perToken;
  const futureSavings = input.nFuture * (costBefore - costAfter);
  const cacheBreakLoss = (input.changedTokensAfter * Math.max(0, prices.cacheWritePerMTok - prices.cacheReadPerMTok)) / 1e6;
  const gcLoss = input.gcCost;
  const benefit = futureSavings - cacheBreakLoss - gcLoss;
  const pruneRate = input.tokensBefore > 0 ? 1 - input.tokensAfter / input.tokensBefore : 0;
  const usd = (x: number) => `$${x.toFixed(4)}`;
  const numbers = `benefit ${usd(benefit)} = ${input.nFuture} × (${usd(costBefore)} − ${usd(costAfter)}) − cache break ${usd(cacheBreakLoss)} − GC ${usd(gcLoss)}`;
  let commitNow = true;
  let reason = `commit now: ${numbers}`;
  if (pruneRate < input.minPruneRate) {
    commitNow = false;
    reason = `pending: pruning ${(pruneRate * 100).toFixed(1)}% is below the ${(input.minPruneRate * 100).toFixed(0)}% commit rule (${numbers})`;
  } else if (benefit <= 0) {
    commitNow = false;
    reason = `pending until cache expiry or the next task boundary: ${numbers}`;
  }
  return { costBefore, costAfter, futureSavings, cacheBreakLoss, gcLoss, benefit, pruneRate, commitNow, reason };
}
