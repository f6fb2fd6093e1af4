import type { UsageSlotSums } from "@/lib/online/assignment/slots";
import { Prisma } from "@/generated/prisma-sqlite/client";
import type { Db } from "../db/client";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** Rows per INSERT: 11 parameters each stays far under SQLite's (32,766) and PostgreSQL's (65,535) limits. */
const BATCH = 1_000;

/**
 * Writes drained slot sums for one log in batches (inside the importer's transaction); returns the
 * count. One multi-row INSERT per batch through `Prisma.sql`, which binds parameters in each
 * engine's own syntax: about six times faster than `createMany` on SQLite, which matters for logs
 * of millions of calls.
 */
export async function writeSlots(tx: Tx, logId: string, slots: readonly UsageSlotSums[]): Promise<number> {
  for (let i = 0; i < slots.length; i += BATCH) {
    const values = slots
      .slice(i, i + BATCH)
      .map(
        (s) =>
          Prisma.sql`(${logId}, ${s.account}, ${s.group ?? null}, ${s.surface}, ${new Date(s.slotStart)}, ${s.firstLine}, ${s.calls}, ${s.input}, ${s.cached}, ${s.cacheWrite}, ${s.output})`,
      );
    await tx.$executeRaw`INSERT INTO "UsageSlot" ("logId", "account", "groupLabel", "surface", "slotStart", "firstLine", "calls", "input", "cached", "cacheWrite", "output") VALUES ${Prisma.join(values)}`;
  }
  return slots.length;
}
