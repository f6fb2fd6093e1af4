import type { UsageSlotSums } from "@/lib/online/assignment/slots";
import type { Db } from "../db/client";

/** Slots read per query: keeps each result set small on both engines. */
const PAGE = 20_000;
/** Logs whose slots stay in memory: a log's slots never change, and every control change re-reads them. */
const CACHED_LOGS = 3;

const globalForSlots = globalThis as unknown as { tracefoldUsageSlots?: Map<string, UsageSlotSums[]> };

/**
 * All stored slots of a log in first-line order (ties by id), as lib/online slot sums. Reading in
 * that order rebuilds the file's account order, which the report's bootstrap depends on. The last
 * few logs read are cached per process (keyed by database client too, so tests do not mix).
 */
export async function loadSlots(db: Db, logId: string): Promise<UsageSlotSums[]> {
  const cache = (globalForSlots.tracefoldUsageSlots ??= new Map());
  const key = `${cacheKeyOf(db)}:${logId}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const slots: UsageSlotSums[] = [];
  let cursor: number | undefined;
  for (;;) {
    const page = await db.usageSlot.findMany({
      where: { logId },
      orderBy: [{ firstLine: "asc" }, { id: "asc" }],
      take: PAGE,
      ...(cursor === undefined ? {} : { cursor: { id: cursor }, skip: 1 }),
      select: {
        id: true,
        account: true,
        groupLabel: true,
        surface: true,
        slotStart: true,
        firstLine: true,
        calls: true,
        input: true,
        cached: true,
        cacheWrite: true,
        output: true,
      },
    });
    for (const r of page) {
      const slot: UsageSlotSums = {
        account: r.account,
        surface: r.surface,
        slotStart: r.slotStart.getTime(),
        firstLine: r.firstLine,
        calls: r.calls,
        input: r.input,
        cached: r.cached,
        cacheWrite: r.cacheWrite,
        output: r.output,
      };
      if (r.groupLabel !== null) slot.group = r.groupLabel;
      slots.push(slot);
    }
    if (page.length < PAGE) break;
    cursor = page[page.length - 1]!.id;
  }
  cache.set(key, slots);
  while (cache.size > CACHED_LOGS) cache.delete(cache.keys().next().value!);
  return slots;
}

const ids = new WeakMap<object, number>();
let nextId = 0;
function cacheKeyOf(db: Db): number {
  let id = ids.get(db);
  if (id === undefined) ids.set(db, (id = ++nextId));
  return id;
}
