import { assignByEmailPivot, assignByHash, labelToGroup, type AssignRule } from "./assign";
import { createLocalClock, DEFAULT_WINDOW, type DailyWindow } from "./local-time";
import type { Group, UsageRow } from "../usage/schema";
import type { UsageSlotSums } from "./slots";

/** What assignment and the surface filter read of a call (a row or a slot). */
type AccountKey = Pick<UsageRow, "account" | "group" | "surface">;

/** Sums kept per (account, local day-hour): [calls, input, cached input, cache write, output]. */
export type CellSums = Float64Array;
export const CALLS = 0,
  INPUT = 1,
  CACHED = 2,
  WRITE = 3,
  OUTPUT = 4;

export interface AccountCells {
  group: Group;
  /** Local `day * 24 + hour` → sums, for calls at or after the rollout. */
  post: Map<number, CellSums>;
  /** The same before the rollout (empty without `rolloutAt`). */
  pre: Map<number, CellSums>;
}

export interface AggregateOptions {
  rule: AssignRule;
  timeZone: string;
  window?: DailyWindow;
  /** Keep only these surfaces (seed 000's coverage); absent: every surface. */
  surfaces?: readonly string[];
  /** Volatile windows (UTC ms, `[start, end)`) the user flagged, e.g. month-end batch traffic: excluded. */
  volatile?: readonly { start: number; end: number }[];
  /** Rollout instant (ms): calls before it form the pre-period for difference-in-differences. */
  rolloutAt?: number;
}

export interface AggregateCounts {
  rows: number;
  used: number;
  outsideWindow: number;
  volatile: number;
  otherSurface: number;
  /** Rows whose account could not be assigned (empty account, group label naming neither group). */
  unassigned: number;
  /** Accounts whose group column changed between rows (kept in their first group). */
  conflictingAccounts: number;
  /** Accounts without an `@` under the e-mail rule (the rule then reads the id's first character). */
  nonEmailAccounts: number;
}

/**
 * One-pass aggregation of usage rows into per-(account, local hour) sums. Memory is
 * O(accounts × active hours), independent of the number of calls, which is what lets millions of
 * rows stream through. Group assignment happens here, once per account (per row for the column
 * rule, where a changing label is counted as a conflict, not silently merged).
 */
export class UsageAggregator {
  readonly accounts = new Map<string, AccountCells>();
  readonly counts: AggregateCounts = {
    rows: 0,
    used: 0,
    outsideWindow: 0,
    volatile: 0,
    otherSurface: 0,
    unassigned: 0,
    conflictingAccounts: 0,
    nonEmailAccounts: 0,
  };
  private readonly clock: ReturnType<typeof createLocalClock>;
  private readonly window: DailyWindow;
  private readonly surfaces?: Set<string>;
  private readonly conflicted = new Set<string>();

  constructor(readonly options: AggregateOptions) {
    this.clock = createLocalClock(options.timeZone);
    this.window = options.window ?? DEFAULT_WINDOW;
    if (options.surfaces && options.surfaces.length > 0) this.surfaces = new Set(options.surfaces);
  }

  add(row: UsageRow): void {
    this.addSums(row, row.timestamp, 1, row.inputTokens, row.cachedInputTokens, row.cacheWriteTokens, row.outputTokens);
  }

  /**
   * Adds the pre-summed calls of one account in one 15-minute UTC slot (what the studio stores).
   * Every filter is applied at the slot's start, so the result equals `add` on the slot's rows as
   * long as windows, volatile windows and the rollout fall on quarter hours (`isSlotAligned`), and
   * slots are added in the order of their first line (the account order the bootstrap depends on).
   */
  addSlot(slot: UsageSlotSums): void {
    this.addSums(slot, slot.slotStart, slot.calls, slot.input, slot.cached, slot.cacheWrite, slot.output);
  }

  private addSums(key: AccountKey, timestamp: number, calls: number, input: number, cached: number, write: number, output: number): void {
    this.counts.rows += calls;
    if (this.surfaces && !this.surfaces.has(key.surface ?? "")) return void (this.counts.otherSurface += calls);
    if (this.options.volatile?.some((v) => timestamp >= v.start && timestamp < v.end)) return void (this.counts.volatile += calls);
    const local = this.clock(timestamp);
    if (local.minuteOfDay < this.window.startMinute || local.minuteOfDay >= this.window.endMinute) return void (this.counts.outsideWindow += calls);
    const account = this.accountFor(key);
    if (!account) return void (this.counts.unassigned += calls);
    const isPre = this.options.rolloutAt !== undefined && timestamp < this.options.rolloutAt;
    const cells = isPre ? account.pre : account.post;
    const cell = local.day * 24 + local.hour;
    let sums = cells.get(cell);
    if (!sums) cells.set(cell, (sums = new Float64Array(5)));
    sums[CALLS]! += calls;
    sums[INPUT]! += input;
    sums[CACHED]! += cached;
    sums[WRITE]! += write;
    sums[OUTPUT]! += output;
    this.counts.used += calls;
  }

  private accountFor(row: AccountKey): AccountCells | undefined {
    const existing = this.accounts.get(row.account);
    const rule = this.options.rule;
    if (rule.kind === "column") {
      const group = row.group === undefined ? null : labelToGroup(row.group);
      if (!group) return undefined;
      if (existing) {
        if (existing.group !== group && !this.conflicted.has(row.account)) {
          this.conflicted.add(row.account);
          this.counts.conflictingAccounts++;
        }
        return existing;
      }
      return this.create(row.account, group);
    }
    if (existing) return existing;
    const group = rule.kind === "hash" ? assignByHash(row.account, rule.salt, rule.treatmentShare) : assignByEmailPivot(row.account, rule.pivot);
    if (!group) return undefined;
    if (rule.kind === "email-pivot" && !row.account.includes("@")) this.counts.nonEmailAccounts++;
    return this.create(row.account, group);
  }

  private create(account: string, group: Group): AccountCells {
    const cells: AccountCells = { group, post: new Map(), pre: new Map() };
    this.accounts.set(account, cells);
    return cells;
  }
}
