import { isAgentItem, itemTokens, type PretrimStep } from "./types";

export interface DropAgentItemsOptions {
  /** Token budget the summarizer input must fit. */
  budget: number;
}

/**
 * Seed 001 pre-trim move 2: "walking newest-first and dropping agent-generated items until the
 * input fits, leaving user messages intact". Agent items are assistant messages, tool outputs and
 * user messages that only carry tool results; user requests and system messages always stay.
 */
export function dropAgentItemsNewestFirst(options: DropAgentItemsOptions): PretrimStep {
  return (items) => {
    let total = itemTokens(items);
    const before = total;
    const dropped = new Set<number>();
    for (let i = items.length - 1; i >= 0 && total > options.budget; i--) {
      if (!isAgentItem(items[i]!)) continue;
      dropped.add(i);
      total -= items[i]!.tokens;
    }
    const log =
      dropped.size === 0
        ? `pre-trim drop-agent-items-newest-first: input ${before} tokens ${before <= options.budget ? "fits" : "has no agent items to drop under"} ${options.budget}`
        : `pre-trim drop-agent-items-newest-first: dropped ${dropped.size} agent items newest-first (${before - total} tokens), user messages kept; input now ${total} of ${options.budget} tokens`;
    return { items: items.filter((_, i) => !dropped.has(i)), edits: [], sidecars: [], log: [log] };
  };
}
