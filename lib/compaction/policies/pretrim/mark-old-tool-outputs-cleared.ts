import type { Sidecar } from "../../projection/types";
import { isUserRequest } from "../../context/objects";
import { partContent, rewritePart, spill, type PretrimStep, type TrimEdit, type TrimItem } from "./types";

/** What a cleared output reads as (seed 001; OpenCode renders compacted tool parts this way). */
export const CLEARED_PLACEHOLDER = "[Old tool result content cleared]";

export interface ClearOldToolOutputsOptions {
  /** Tool-output tokens kept newest-first before clearing starts (OpenCode PRUNE_PROTECT = 40,000). */
  protectTokens: number;
  /** Clear only if at least this many tokens would go (OpenCode PRUNE_MINIMUM = 20,000). */
  minimumTokens: number;
  /** Newest user turns never touched (OpenCode: 2). */
  protectTurns: number;
  /** Normalised tool names never cleared (OpenCode PRUNE_PROTECTED_TOOLS = ["skill"]). */
  protectedTools: readonly string[];
}

export const OPENCODE_PRUNE: ClearOldToolOutputsOptions = { protectTokens: 40_000, minimumTokens: 20_000, protectTurns: 2, protectedTools: ["skill"] };

/**
 * Seed 001 pre-trim move 5: "marking older tool outputs as compacted so they render as
 * [Old tool result content cleared] but stay queryable in the host's storage" — OpenCode's
 * `prune`: walk newest → oldest, skip the newest `protectTurns` user turns, stop at an earlier
 * summary or an already-cleared output; outputs past the first `protectTokens` become candidates,
 * cleared only when they add up to more than `minimumTokens`. Originals go to sidecars.
 */
export function markOldToolOutputsCleared(options: ClearOldToolOutputsOptions = OPENCODE_PRUNE): PretrimStep {
  return (items, tokenizer) => {
    let turns = 0;
    let total = 0;
    let pruned = 0;
    const candidates: { item: number; part: number }[] = [];
    walk: for (let i = items.length - 1; i >= 0; i--) {
      const message = items[i]!.message;
      if (isUserRequest(message)) turns++;
      if (turns < options.protectTurns) continue;
      if (message.meta?.compactSummary === true) break;
      const parts = [...items[i]!.results.entries()].sort((a, b) => b[0] - a[0]);
      for (const [p, info] of parts) {
        if (options.protectedTools.includes(info.id.split(":")[1] ?? "")) continue;
        if (partContent(message.parts[p]!) === CLEARED_PLACEHOLDER) break walk;
        total += info.tokens;
        if (total <= options.protectTokens) continue;
        pruned += info.tokens;
        candidates.push({ item: i, part: p });
      }
    }
    if (pruned <= options.minimumTokens) {
      return {
        items,
        edits: [],
        sidecars: [],
        log: [
          `pre-trim mark-old-tool-outputs-cleared: ${pruned} tokens past the ${options.protectTokens}-token protect window, not over the ${options.minimumTokens} minimum: nothing cleared`,
        ],
      };
    }
    const out: TrimItem[] = [...items];
    const edits: TrimEdit[] = [];
    const sidecars: Sidecar[] = [];
    for (const { item, part } of candidates) {
      sidecars.push(spill(out[item]!.results.get(part)!.id, partContent(out[item]!.message.parts[part]!)));
      const rewritten = rewritePart(out[item]!, part, CLEARED_PLACEHOLDER, tokenizer, "pretrim/mark-old-tool-outputs-cleared");
      out[item] = rewritten.item;
      edits.push(rewritten.edit);
    }
    return {
      items: out,
      edits,
      sidecars,
      log: [
        `pre-trim mark-old-tool-outputs-cleared: ${edits.length} tool outputs (${pruned} tokens) past the ${options.protectTokens}-token protect window cleared to "${CLEARED_PLACEHOLDER}"`,
      ],
    };
  };
}
