import { itemTokens, type PretrimStep } from "./types";

export interface DropOldestOptions {
  /** Token budget the summarizer input must fit. */
  budget: number;
}

/**
 * Seed 001 pre-trim move 1: "iteratively dropping the oldest items and retrying when the
 * summarization call itself overflows" — Codex's `history.remove_first_item()` loop ("trim from
 * the beginning to preserve cache and keep recent messages intact"). Done in one pass over the
 * prefix sums instead of retrying; the newest item always survives.
 */
export function dropOldestUntilFits(options: DropOldestOptions): PretrimStep {
  return (items) => {
    let total = itemTokens(items);
    const before = total;
    let first = 0;
    while (total > options.budget && first < items.length - 1) total -= items[first++]!.tokens;
    const log =
      first === 0
        ? `pre-trim drop-oldest-until-fits: input ${before} tokens fits ${options.budget}`
        : `pre-trim drop-oldest-until-fits: dropped the ${first} oldest items (${before - total} tokens) so the summarizer input fits ${options.budget} tokens`;
    return { items: items.slice(first), edits: [], sidecars: [], log: [log] };
  };
}
