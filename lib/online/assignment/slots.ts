import type { DailyWindow } from "./local-time";
import type { UsageRow } from "../usage/schema";

/**
 * The studio's storage grain: one account's calls in one 15-minute UTC slot on one surface. Every
 * time zone offset in use is a multiple of 15 minutes (India's :30, Nepal's :45 included), so a
 * slot never straddles a local hour in any zone: switching the zone regroups stored slots at query
 * time, and the result equals reading the rows again.
 */
export const SLOT_MS = 15 * 60_000;

export interface UsageSlotSums {
  account: string;
  /** Group label as written in the log (the column rule maps it when a report is asked for). */
  group?: string;
  /** Surface, `""` when the log has none (the surface filter reads absent and `""` alike). */
  surface: string;
  /** UTC instant (ms) the slot starts at: a multiple of `SLOT_MS`. */
  slotStart: number;
  /** First line of the file in this slot: ordering slots by it rebuilds the file's account order. */
  firstLine: number;
  calls: number;
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
}

/** Start of the 15-minute UTC slot holding `ms`. */
export function slotStartOf(ms: number): number {
  return Math.floor(ms / SLOT_MS) * SLOT_MS;
}

/** Whether an instant falls on a slot boundary (volatile windows and rollouts the studio accepts). */
export function isSlotAligned(ms: number): boolean {
  return ms % SLOT_MS === 0;
}

/** Whether a daily window starts and ends on quarter hours (finer windows need the rows: use the CLI). */
export function isWindowSlotAligned(window: DailyWindow): boolean {
  return window.startMinute % 15 === 0 && window.endMinute % 15 === 0;
}

/**
 * Sums rows into slots as they stream by. Memory is bounded by `drain`: the importer empties the
 * accumulator whenever `size` passes its batch limit and writes the partial sums; a key written
 * twice is simply two rows that readers add up (sums are additive, and the smaller `firstLine`
 * still orders the account first).
 */
export class SlotAccumulator {
  private readonly slots = new Map<string, UsageSlotSums>();

  get size(): number {
    return this.slots.size;
  }

  add(line: number, row: UsageRow): void {
    const slotStart = slotStartOf(row.timestamp);
    const surface = row.surface ?? "";
    const key = `${row.account}\u0000${row.group ?? "\u0001"}\u0000${surface}\u0000${slotStart}`;
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { account: row.account, surface, slotStart, firstLine: line, calls: 0, input: 0, cached: 0, cacheWrite: 0, output: 0 };
      if (row.group !== undefined) slot.group = row.group;
      this.slots.set(key, slot);
    }
    slot.calls++;
    slot.input += row.inputTokens;
    slot.cached += row.cachedInputTokens;
    slot.cacheWrite += row.cacheWriteTokens;
    slot.output += row.outputTokens;
    if (line < slot.firstLine) slot.firstLine = line;
  }

  /** Returns the slots summed so far (in first-line order) and starts empty again. */
  drain(): UsageSlotSums[] {
    const out = [...this.slots.values()].sort((a, b) => a.firstLine - b.firstLine);
    this.slots.clear();
    return out;
  }
}
