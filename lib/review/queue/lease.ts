import type { Clock } from "../clock";

/**
 * Item leases: while a reviewer has an item open, nobody else is given it; the lease ends when the
 * reviewer releases it or when it times out (a closed tab must not lock an item forever). A lease
 * is live while `now < expiresAt`: at exactly `expiresAt` it has expired. The holder keeps it alive
 * with `renewLease` (a heartbeat) and may re-acquire it at any time, which also renews it.
 *
 * Pure functions over an immutable table: the server stores the table (one row per item) and must
 * apply `acquireLease` atomically (compare-and-set on the row) so two reviewers cannot both win.
 * A lease governs who is *shown* an item, never whether a label is accepted: a label saved after
 * the lease lapsed (a dropped network) is still a label.
 */
export interface Lease {
  itemId: string;
  reviewer: string;
  acquiredAt: number;
  expiresAt: number;
}

export type LeaseTable = ReadonlyMap<string, Lease>;

export const DEFAULT_LEASE_MS = 15 * 60_000;

export type LeaseResult =
  | { ok: true; lease: Lease; table: LeaseTable }
  | { ok: false; code: "held"; heldBy: string; expiresAt: number }
  | { ok: false; code: "not-held"; message: string };

/** The live lease on an item, if any (expired leases are ignored). */
export function activeLease(table: LeaseTable, itemId: string, clock: Clock): Lease | undefined {
  const lease = table.get(itemId);
  return lease && clock.now() < lease.expiresAt ? lease : undefined;
}

/** Takes (or re-takes) an item for `reviewer` for `ttlMs`; refused while another reviewer holds it. */
export function acquireLease(table: LeaseTable, itemId: string, reviewer: string, clock: Clock, ttlMs: number = DEFAULT_LEASE_MS): LeaseResult {
  if (!(ttlMs > 0)) throw new RangeError(`lease duration must be > 0 ms, got ${ttlMs}`);
  const now = clock.now();
  const held = activeLease(table, itemId, clock);
  if (held && held.reviewer !== reviewer) return { ok: false, code: "held", heldBy: held.reviewer, expiresAt: held.expiresAt };
  const lease: Lease = { itemId, reviewer, acquiredAt: held?.acquiredAt ?? now, expiresAt: now + ttlMs };
  return { ok: true, lease, table: new Map(table).set(itemId, lease) };
}

/** Extends a live lease held by `reviewer`; an expired or foreign lease cannot be renewed. */
export function renewLease(table: LeaseTable, itemId: string, reviewer: string, clock: Clock, ttlMs: number = DEFAULT_LEASE_MS): LeaseResult {
  const held = activeLease(table, itemId, clock);
  if (!held) return { ok: false, code: "not-held", message: `no live lease on ${itemId}` };
  if (held.reviewer !== reviewer) return { ok: false, code: "held", heldBy: held.reviewer, expiresAt: held.expiresAt };
  return acquireLease(table, itemId, reviewer, clock, ttlMs);
}

/** Gives an item back; only its holder can release a live lease. Releasing an expired lease is a no-op success. */
export function releaseLease(table: LeaseTable, itemId: string, reviewer: string, clock: Clock): LeaseResult | { ok: true; table: LeaseTable } {
  const held = activeLease(table, itemId, clock);
  if (held && held.reviewer !== reviewer) return { ok: false, code: "held", heldBy: held.reviewer, expiresAt: held.expiresAt };
  const next = new Map(table);
  next.delete(itemId);
  return { ok: true, table: next };
}

/** Drops expired leases (housekeeping; `activeLease` already ignores them). */
export function pruneExpired(table: LeaseTable, clock: Clock): LeaseTable {
  return new Map([...table].filter(([, lease]) => clock.now() < lease.expiresAt));
}
