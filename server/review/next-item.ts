import { canClaim, isOfferedTo, nextItem, previousItem, type Clock, type QueueItem, type QueueState } from "@/lib/review";
import type { Db } from "../db/client";
import { acquireItemLease, releaseItemLease } from "./lease-item";
import { loadQueue } from "./queue-state";

export type NextOutcome =
  | { ok: true; item: QueueItem; expiresAt: number }
  | { ok: true; item: null; reason: "done" }
  | { ok: false; code: "not_found" | "held" | "not_assigned"; message: string };

/**
 * The next (or previous) item for a reviewer, leased to them. lib/review picks the candidate; the
 * lease is then taken with the database compare-and-set. When another reviewer wins the race for
 * that candidate, the search goes on past it — so concurrent reviewers end up on different items.
 */
export async function openNextItem(
  db: Db,
  queueId: string,
  reviewer: string,
  clock: Clock,
  options: { current?: string; direction?: "next" | "previous" } = {},
  random: () => number = Math.random,
): Promise<NextOutcome> {
  // Moving on gives the current item back, else lib's "resume what you hold" would return it again.
  if (options.current) await releaseItemLease(db, queueId, options.current, reviewer);
  // A lost race only rules that candidate out (another reviewer holds it now), so the search goes
  // on in the state already read, re-read (leases and labels only: cheap) after every 5 lost races.
  let queue = await loadQueue(db, queueId, clock);
  if (!queue) return { ok: false, code: "not_found", message: `no review queue ${queueId}` };
  const lost = new Set<string>();
  for (let attempt = 0; attempt < 50; attempt++) {
    if (attempt > 0 && attempt % 5 === 0) {
      queue = await loadQueue(db, queueId, clock);
      if (!queue) return { ok: false, code: "not_found", message: `no review queue ${queueId}` };
    }
    const state = { ...queue.state, items: queue.state.items.filter((i) => !lost.has(i.id)) };
    const previous = options.direction === "previous" && options.current;
    // After a lost race the reviewers racing for the same first free item spread out over the next
    // few free ones, so a reviewer gets a free item if there is one instead of losing race after race.
    const candidate = previous
      ? previousItem(state, reviewer, options.current!)
      : lost.size > 0
        ? spreadNext(state, reviewer, options.current, random)
        : nextItem(state, reviewer, options.current);
    if (!candidate) return { ok: true, item: null, reason: "done" };
    // Previous may lead to an item this reviewer completed: it is shown (to revise) without a lease.
    if (queue.state.completions.get(candidate.id)?.has(reviewer)) return { ok: true, item: candidate, expiresAt: 0 };
    const lease = await acquireItemLease(db, queueId, candidate.id, reviewer, queue.leaseMs, clock, "take");
    if (lease.ok) return { ok: true, item: candidate, expiresAt: lease.expiresAt };
    lost.add(candidate.id);
  }
  return { ok: false, code: "held", message: "every open item is held by another reviewer; try again shortly" };
}

/** How many of the next claimable items a reviewer who lost a lease race picks from at random. */
const SPREAD = 32;

/** One of the first SPREAD items lib/review's `nextItem` walk would offer, chosen at random. */
function spreadNext(state: QueueState, reviewer: string, current: string | undefined, random: () => number): QueueItem | undefined {
  const first = nextItem(state, reviewer, current);
  if (!first) return undefined;
  const claimable: QueueItem[] = [first];
  const { items } = state;
  const at = items.indexOf(first);
  for (let k = 1; k < items.length && claimable.length < SPREAD; k++) {
    const item = items[(at + k) % items.length]!;
    if (item.id !== current && canClaim(state, item, reviewer)) claimable.push(item);
  }
  return claimable[Math.floor(random() * claimable.length)];
}

/**
 * Opens one named item (a link, or a reload): leased when free, refused while another reviewer
 * holds it, and refused when it is assigned to other reviewers (unless this reviewer completed it
 * before the assignment: their own labels stay theirs to revise).
 */
export async function openItem(db: Db, queueId: string, itemKey: string, reviewer: string, clock: Clock): Promise<NextOutcome> {
  const queue = await loadQueue(db, queueId, clock);
  const item = queue?.items.find((i) => i.id === itemKey);
  if (!queue || !item) return { ok: false, code: "not_found", message: `no item ${itemKey} in this queue` };
  if (queue.state.completions.get(item.id)?.has(reviewer)) return { ok: true, item, expiresAt: 0 };
  if (!isOfferedTo(queue.state, item.id, reviewer)) return { ok: false, code: "not_assigned", message: "this item is assigned to other reviewers" };
  const lease = await acquireItemLease(db, queueId, itemKey, reviewer, queue.leaseMs, clock);
  if (!lease.ok) return { ok: false, code: lease.code, message: lease.code === "held" ? `${lease.heldBy} is reviewing this item` : lease.message };
  return { ok: true, item, expiresAt: lease.expiresAt };
}
