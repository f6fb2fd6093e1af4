/**
 * Billed cost of calls, with the cache terms separate — the reason this exists: a policy that
 * shrinks the prompt but rewrites it invalidates the provider's prefix cache, so the next calls
 * pay cache writes (more than plain input) instead of cached reads (a tenth of it). Counting input
 * tokens alone would show that as a pure win.
 */
export interface Prices {
  /** USD per million uncached, unwritten input tokens. */
  input: number;
  /** USD per million cached input tokens (cache reads). */
  cachedInput: number;
  /** USD per million cache-write tokens. */
  cacheWrite: number;
  /** USD per million output tokens. */
  output: number;
}

/** Anthropic's list prices for Claude Sonnet 4 (5-minute cache writes): a default, always overridable. */
export const DEFAULT_PRICES: Prices = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };

export interface TokenTotals {
  calls: number;
  /** Whole prompts (cached and written tokens included). */
  input: number;
  cached: number;
  write: number;
  output: number;
}

/** USD for these totals: the uncached remainder of the prompt at `input`, the cache terms at theirs. */
export function billedCost(t: TokenTotals, prices: Prices): number {
  const plain = Math.max(0, t.input - t.cached - t.write);
  return (plain * prices.input + t.cached * prices.cachedInput + t.write * prices.cacheWrite + t.output * prices.output) / 1e6;
}

/** Parses `input=3,cachedInput=0.3,cacheWrite=3.75,output=15` (any subset) over the defaults. */
export function parsePrices(text: string, base: Prices = DEFAULT_PRICES): Prices {
  const out: Prices = { ...base };
  for (const pair of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [key, value] = pair.split("=");
    const n = Number(value);
    if (!key || !(key in out) || value === undefined || !Number.isFinite(n) || n < 0) {
      throw new RangeError(`expected prices as name=USD-per-million with names input, cachedInput, cacheWrite, output; got ${JSON.stringify(pair)}`);
    }
    out[key as keyof Prices] = n;
  }
  return out;
}
