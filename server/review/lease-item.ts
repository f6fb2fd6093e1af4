import type { Clock } from "@/lib/review";
import type { Db } from "../db/client";

/**
 * Item leases in the database. lib/review/queue/lease.ts states the rules (live while now <
 * expiresAt; the holder may renew; a label is accepted whether or not its lease is live); here
 * each step is ONE conditional UPDATE on the item row — a compare-and-set the database serialises
 * (a row lock on PostgreSQL, the single writer on SQLite) — so two reviewers can never both hold
 * an item, whatever the interleaving of their requests.
 */
export type LeaseOutcome =
  | { ok: true; itemKey: string; expiresAt: number }
  | { ok: false; code: "held"; heldBy: string; expiresAt: number }
  | { ok: false; code: "not_found"; message: string };

export async function acquireItemLease(
  db: Db,
  queueId: string,
  itemKey: string,
  reviewer: string,
  leaseMs: number,
  clock: Clock,
  expect: "renew" | "take" = "renew",
): Promise<LeaseOutcome> {
  const now = new Date(clock.now());
  const expiresAt = new Date(clock.now() + leaseMs);
  // Renew: the reviewer already holds a live lease (keeps its acquiredAt).
  const renew = async () =>
    (await db.reviewItem.updateMany({ where: { queueId, itemKey, leaseReviewer: reviewer, leaseExpiresAt: { gt: now } }, data: { leaseExpiresAt: expiresAt } }))
      .count === 1;
  // Take: nobody holds it, or the lease has lapsed.
  const take = async () =>
    (
      await db.reviewItem.updateMany({
        where: { queueId, itemKey, OR: [{ leaseReviewer: null }, { leaseExpiresAt: null }, { leaseExpiresAt: { lte: now } }] },
        data: { leaseReviewer: reviewer, leaseAcquiredAt: now, leaseExpiresAt: expiresAt },
      })
    ).count === 1;
  // The two conditions exclude each other, so their order changes nothing but how many statements
  // the usual case needs: a heartbeat renews, opening a new item (`expect: "take"`) takes.
  const [first, second] = expect === "take" ? [take, renew] : [renew, take];
  if ((await first()) || (await second())) return { ok: true, itemKey, expiresAt: expiresAt.getTime() };
  const row = await db.reviewItem.findUnique({ where: { queueId_itemKey: { queueId, itemKey } }, select: { leaseReviewer: true, leaseExpiresAt: true } });
  if (!row) return { ok: false, code: "not_found", message: `no item ${itemKey} in queue ${queueId}` };
  return { ok: false, code: "held", heldBy: row.leaseReviewer ?? "another reviewer", expiresAt: row.leaseExpiresAt?.getTime() ?? 0 };
}

/** Gives an item back; only the holder's lease is cleared (a lapsed or foreign lease is left alone). */
export async function releaseItemLease(db: Db, queueId: string, itemKey: string, reviewer: string): Promise<{ released: boolean }> {
  const cleared = await db.reviewItem.updateMany({
    where: { queueId, itemKey, leaseReviewer: reviewer },
    data: { leaseReviewer: null, leaseAcquiredAt: null, leaseExpiresAt: null },
  });
  return { released: cleared.count === 1 };
}
