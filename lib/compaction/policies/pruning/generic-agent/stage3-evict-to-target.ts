import { callsAnsweredInProtected } from "../../shared/target";
import type { PolicyContext } from "../../types";
import { countPartTokens, MESSAGE_OVERHEAD_TOKENS } from "../../../../tokens/message-tokens";
import { evictEntry, type GaEntry, type GaHistory } from "./history";
import { compressEntries } from "./stage2-compress";
import { evictAssistantHead, orphanedResults, type EvictionResult } from "./stage3-evict";

/**
 * Stage 3 under a harness target (matched budgets): GA's own eviction — the stricter compression
 * pass, FIFO eviction of the oldest messages, at least `minKept` messages left, no assistant
 * message at the head, orphan clean-up — with the stop condition moved from GA's character budget
 * (keepRate · α · W) to the target in tokens: the view (system prompt, what is left of the history
 * and, once anything is evicted, the stage 4 anchor of `anchorTokens`) at most `targetTokens`.
 * Token counts are exact per message: the index's for untouched ones, a recount of the parts a stage
 * rewrote for the others. When GA's limits (the protected latest turn, `minKept`) keep the view over
 * the target anyway and the anchor would cost more than the eviction saves, nothing is evicted.
 */
export interface TargetEvictionOptions {
  targetTokens: number;
  strictKeepRecent: number;
  minKept: number;
  /** Tokens of the anchor message stage 4 adds when something is evicted. */
  anchorTokens: number;
}

export interface TargetEvictionResult extends EvictionResult {
  /** Estimated view tokens after eviction (anchor included when something was evicted). */
  tokens: number;
}

export function evictToTarget(ctx: PolicyContext, history: GaHistory, options: TargetEvictionOptions): TargetEvictionResult {
  const { entries } = history;
  const strictParts = compressEntries(history, Math.max(0, entries.length - options.strictKeepRecent), "stage3-compress-strict");
  const before = viewTokens(ctx, history);
  const none = { strictParts, evicted: [], orphans: [], targetChars: Number.NaN, tokens: before };
  if (before <= options.targetTokens) return none;
  // Rehearse on a copy: when even the deepest eviction GA allows misses the target and its anchor
  // makes the view larger than not evicting at all, stop at the strict pass (closest to the target).
  const rehearsal = evictFrom(ctx, copyHistory(history), options, before);
  if (rehearsal.tokens > options.targetTokens && rehearsal.tokens >= before) return none;
  return { ...evictFrom(ctx, history, options, before), strictParts };
}

/** GA's FIFO eviction, head rule and orphan clean-up, stopping once the view and anchor fit. */
function evictFrom(ctx: PolicyContext, history: GaHistory, options: TargetEvictionOptions, start: number): TargetEvictionResult {
  const { entries } = history;
  // A message holding a call answered in the protected turn comes back (lineage repair): it saves nothing.
  const restored = callsAnsweredInProtected(ctx);
  const saves = (entry: GaEntry) => (restored.has(entry.message) ? 0 : entryTokens(ctx, entry));
  let tokens = start;
  const evicted: number[] = [];
  let kept = entries.length;
  for (let i = 0; i < entries.length && tokens + options.anchorTokens > options.targetTokens && kept > options.minKept; i++) {
    const entry = entries[i]!;
    if (entry.isProtected) continue;
    tokens -= saves(entry);
    evictEntry(history, entry);
    evicted.push(entry.message);
    kept--;
  }
  evictAssistantHead(history, evicted, (entry) => (tokens -= saves(entry)));
  const orphans = orphanedResults(ctx, new Set(evicted));
  const byMessage = new Map(entries.map((e) => [e.message, e]));
  for (const orphan of orphans) {
    // The orphan's part as the stages left it (a strict pass may have windowed it already).
    const part = byMessage.get(orphan.part!.message)?.parts[orphan.part!.part];
    tokens -= part ? countPartTokens(part, ctx.tokenizer) : orphan.tokens;
  }
  return { strictParts: 0, evicted, orphans, targetChars: Number.NaN, tokens: tokens + (evicted.length > 0 ? options.anchorTokens : 0) };
}

function copyHistory(history: GaHistory): GaHistory {
  return { chars: history.chars, entries: history.entries.map((e) => ({ ...e, parts: [...e.parts], rules: [...e.rules] })) };
}

/** Tokens of the view GA's history stands for now: system messages (never in the history) plus every kept entry. */
export function viewTokens(ctx: PolicyContext, history: GaHistory): number {
  let tokens = 0;
  for (let m = 0; m < ctx.cut; m++) if (ctx.session.messages[m]!.role === "system") tokens += ctx.index.messageTokens[m]!;
  for (const entry of history.entries) if (!entry.evicted) tokens += entryTokens(ctx, entry);
  return tokens;
}

function entryTokens(ctx: PolicyContext, entry: GaEntry): number {
  if (entry.rules.every((r) => r === undefined)) return ctx.index.messageTokens[entry.message]!;
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  for (const part of entry.parts) tokens += countPartTokens(part, ctx.tokenizer);
  return tokens;
}
