import type { Clock } from "../clock";
import type { QueueItem } from "./items";
import { activeLease, type LeaseTable } from "./lease";
import { isDone, type Overlap } from "./progress";

/**
 * Next / previous within one queue, in the queue's stable order.
 *
 * - `next`: the item the reviewer already holds a live lease on comes first (resume after a
 *   reload); otherwise the first item after `current` (wrapping round) that the reviewer can
 *   claim: not done, not completed by them, not leased by someone else.
 * - `previous`: the nearest item before `current` (no wrap) that the reviewer completed or could
 *   claim — so a reviewer can step back to revise or undo their last label.
 * Both return undefined when there is nothing to go to.
 *
 * Assignment: an item with assignees (an admin gave it, or a slice of the queue, to named
 * reviewers) is offered only to them; items without assignees are offered to everyone.
 */
export interface QueueState {
  items: readonly QueueItem[];
  completions: ReadonlyMap<string, ReadonlySet<string>>;
  leases: LeaseTable;
  overlap: Overlap;
  clock: Clock;
  /** Item id → the reviewers it is assigned to; items missing here are open to every reviewer. */
  assignments?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Whether the item may be offered to `reviewer` at all: unassigned, or assigned to them. */
export function isOfferedTo(state: Pick<QueueState, "assignments">, itemId: string, reviewer: string): boolean {
  const assignees = state.assignments?.get(itemId);
  return !assignees || assignees.size === 0 || assignees.has(reviewer);
}

export function canClaim(state: QueueState, item: QueueItem, reviewer: string): boolean {
  if (state.completions.get(item.id)?.has(reviewer)) return false;
  if (!isOfferedTo(state, item.id, reviewer)) return false;
  if (isDone(item, state.completions, state.overlap)) return false;
  const lease = activeLease(state.leases, item.id, state.clock);
  return !lease || lease.reviewer === reviewer;
}

export function nextItem(state: QueueState, reviewer: string, current?: string): QueueItem | undefined {
  const { items } = state;
  const held = items.find(
    (item) => item.id !== current && activeLease(state.leases, item.id, state.clock)?.reviewer === reviewer && canClaim(state, item, reviewer),
  );
  if (held) return held;
  const start = current === undefined ? 0 : items.findIndex((item) => item.id === current) + 1;
  for (let k = 0; k < items.length; k++) {
    const item = items[(start + k) % items.length]!;
    if (item.id !== current && canClaim(state, item, reviewer)) return item;
  }
  return undefined;
}

export function previousItem(state: QueueState, reviewer: string, current: string): QueueItem | undefined {
  const at = state.items.findIndex((item) => item.id === current);
  for (let i = (at < 0 ? state.items.length : at) - 1; i >= 0; i--) {
    const item = state.items[i]!;
    if (state.completions.get(item.id)?.has(reviewer) || canClaim(state, item, reviewer)) return item;
  }
  return undefined;
}
