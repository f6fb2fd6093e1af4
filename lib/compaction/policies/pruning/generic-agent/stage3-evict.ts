import type { ContextObject } from "../../../context/objects";
import type { PolicyContext } from "../../types";
import { evictEntry, type GaEntry, type GaHistory } from "./history";
import { compressEntries } from "./stage2-compress";

/**
 * Stage 3 — message eviction (seed 002 §2.3.4; GA `trim_messages_history`, notes §7). Runs when
 * C_H > B:
 * 1. rerun stage 2 forced and stricter: only the newest `strictKeepRecent` (4) messages exempt;
 *    stop if C_H is then below the eviction target;
 * 2. evict the oldest messages FIFO until C_H drops below keepRate · B (60% of B), keeping at
 *    least `minKept` (9, GA's `len(post) > 9`) messages;
 * 3. keep evicting until the oldest kept message is not an assistant message (GA pops until the
 *    head is a user message; GA carries tool results in user messages, so a tool message counts);
 * 4. orphan clean-up: a kept tool result whose call was evicted loses its pair. GA turns it into
 *    plain text; the canonical view has no such edit, so it is dropped and recorded, and lineage
 *    repair sees only valid pairs.
 * Protected messages (the latest turn) are never evicted and are skipped over.
 */
export interface EvictionOptions {
  budgetChars: number;
  keepRate: number;
  strictKeepRecent: number;
  minKept: number;
}

export interface EvictionResult {
  strictParts: number;
  /** Entries (message indexes) evicted, oldest first. */
  evicted: number[];
  /** Kept tool results whose call was evicted. */
  orphans: ContextObject[];
  targetChars: number;
}

export function evictOldest(ctx: PolicyContext, history: GaHistory, options: EvictionOptions): EvictionResult {
  const { entries } = history;
  const targetChars = options.keepRate * options.budgetChars;
  const strictParts = compressEntries(history, Math.max(0, entries.length - options.strictKeepRecent), "stage3-compress-strict");
  const evicted: number[] = [];
  if (history.chars < targetChars) return { strictParts, evicted, orphans: [], targetChars };
  let kept = entries.length;
  for (let i = 0; i < entries.length && history.chars >= targetChars && kept > options.minKept; i++) {
    const entry = entries[i]!;
    if (entry.isProtected) continue;
    evictEntry(history, entry);
    evicted.push(entry.message);
    kept--;
  }
  evictAssistantHead(history, evicted);
  return { strictParts, evicted, orphans: orphanedResults(ctx, new Set(evicted)), targetChars };
}

/** Step 3: the head of what remains must not be an assistant message; evicts until it is not. */
export function evictAssistantHead(history: GaHistory, evicted: number[], onEvict?: (entry: GaEntry) => void): void {
  const { entries } = history;
  let head = 0;
  const skipEvicted = () => {
    while (head < entries.length && entries[head]!.evicted) head++;
  };
  skipEvicted();
  while (head < entries.length && entries[head]!.role === "assistant" && !entries[head]!.isProtected) {
    onEvict?.(entries[head]!);
    evictEntry(history, entries[head]!);
    evicted.push(entries[head]!.message);
    skipEvicted();
  }
}

/** Tool results in kept messages whose call sits in an evicted message. */
export function orphanedResults(ctx: PolicyContext, evicted: ReadonlySet<number>): ContextObject[] {
  if (evicted.size === 0) return [];
  return ctx.index.objects.filter(
    (o) =>
      o.kind === "function" &&
      o.part &&
      o.call &&
      o.part.message < ctx.cut &&
      !evicted.has(o.part.message) &&
      !ctx.protect.messages.has(o.part.message) &&
      evicted.has(o.call.message),
  );
}
