import type { CompactionView } from "@/server/trace/session/types";

/**
 * The rows of the timeline: every message, plus a divider row for each native compaction placed
 * before the message it precedes (`beforeMessage`; equal to messageCount means "at the end").
 * Dividers are few, so positions are computed with a sorted list and a binary search.
 */
export type TimelineItem = { kind: "message"; index: number } | { kind: "compaction"; compaction: CompactionView; ordinal: number };

export interface TimelineLayout {
  count: number;
  itemAt(position: number): TimelineItem;
  positionOfMessage(message: number): number;
  /** Position of the divider of `compactions[ordinal]`, or -1 when it is out of range. */
  positionOfCompaction(ordinal: number): number;
}

export function buildTimelineLayout(messageCount: number, compactions: CompactionView[]): TimelineLayout {
  const sorted = compactions
    .map((compaction, ordinal) => ({ compaction, ordinal }))
    .filter(({ compaction }) => compaction.beforeMessage >= 0 && compaction.beforeMessage <= messageCount)
    .sort((a, b) => a.compaction.beforeMessage - b.compaction.beforeMessage || a.ordinal - b.ordinal);
  // Divider j sits at position beforeMessage + j (j dividers precede it).
  const dividerPositions = sorted.map(({ compaction }, j) => compaction.beforeMessage + j);

  /** Dividers placed at or before message `m` (those with beforeMessage ≤ m). */
  const dividersUpTo = (m: number): number => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.compaction.beforeMessage <= m) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  return {
    count: messageCount + sorted.length,
    positionOfMessage: (message) => message + dividersUpTo(message),
    positionOfCompaction: (ordinal) => {
      const j = sorted.findIndex((entry) => entry.ordinal === ordinal);
      return j === -1 ? -1 : dividerPositions[j]!;
    },
    itemAt(position) {
      let lo = 0;
      let hi = dividerPositions.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (dividerPositions[mid]! < position) lo = mid + 1;
        else hi = mid;
      }
      if (dividerPositions[lo] === position) return { kind: "compaction", ...sorted[lo]! };
      return { kind: "message", index: position - lo };
    },
  };
}

/** Pixel estimate of a message row before it is measured: header plus a capped body. */
export function estimateMessageHeight(tokens: number): number {
  const lines = Math.min(14, Math.max(1, Math.ceil((tokens * 4) / 120)));
  return 34 + lines * 17 + (lines >= 12 ? 24 : 0);
}
