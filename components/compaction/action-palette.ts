import type { ActionKind } from "@/lib/compaction/projection/types";
import type { PolicyFamily } from "@/lib/compaction/policies/types";

/** Display order of actions (legend, counts): the recoverable ones first, removal last, kept at the end. */
export const ACTION_ORDER: readonly ActionKind[] = ["fold", "mask", "truncate", "summarize", "prune", "keep"];

/** What each action means, for the legend's tooltips. */
export const ACTION_HINTS: Record<ActionKind, string> = {
  fold: "moved to a sidecar, a pointer stays (restorable byte for byte)",
  mask: "replaced by a short head/tail hint",
  truncate: "cut to part of its text",
  summarize: "collapsed into the summary message",
  prune: "removed from the view",
  keep: "unchanged",
};

export const ACTION_LABELS: Record<ActionKind, string> = {
  fold: "folded",
  mask: "masked",
  truncate: "truncated",
  summarize: "summarized",
  prune: "pruned",
  keep: "kept",
};

export const FAMILY_LABELS: Record<PolicyFamily, string> = {
  baseline: "Baseline",
  "seed-000": "Seed 000 · pruning baselines",
  "seed-001": "Seed 001 · summary split points",
  "seed-002": "Seed 002 · GenericAgent",
  "seed-003": "Seed 003 · interval & self-compact",
  harness: "Real harnesses",
  "self-gc": "Self-GC",
};

/** The most telling action among a message's parts (anything changed beats keep). */
export function dominantAction(actions: readonly ActionKind[]): ActionKind {
  let best: ActionKind = "keep";
  for (const a of actions) if (ACTION_ORDER.indexOf(a) < ACTION_ORDER.indexOf(best)) best = a;
  return best;
}
