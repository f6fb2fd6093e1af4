import { assignByEmailPivot, assignByHash, labelToGroup, type AssignRule } from "./assign";
import { createLocalClock, DEFAULT_WINDOW, type DailyWindow } from "./local-time";
import type { Group, UsageRow } from "./schema";

/** Sums kept per (account, local day-hour): [calls, input, cached input, cache write, output]. */
export type CellSums = Float64Array;
export const CALLS = 0, INPUT = 1, CACHED = 2, WRITE = 3, OUTPUT = 4;

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
  readonly counts: AggregateCounts = { rows: 0, used: 0, outsideWindow: 0, volatile: 0, otherSurface: 0, unassigned: 0, conflictingAccounts: 0, nonEmailAccounts: 0 };
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
    this.counts.rows++;
    if (this.surfaces && !this.surfaces.has(row.surface ?? "")) return void this.counts.otherSurface++;
    if (this.options.volatile?.some((v) => row.timestamp >= v.start && row.timestamp < v.end)) return void this.counts.volatile++;
    const local = this.clock(row.timestamp);
    if (local.minuteOfDay < this.window.startMinute || local.minuteOfDay >= this.window.endMinute) return void this.counts.outsideWindow++;
    const account = this.accountFor(row);
    if (!account) return void this.counts.unassigned++;
    const isPre = this.options.rolloutAt !== undefined && row.timestamp < this.options.rolloutAt;
    const cells = isPre ? account.pre : account.post;
    const key = local.day * 24 + local.hour;
    let sums = cells.get(key);
    if (!sums) cells.set(key, (sums = new Float64Array(5)));
    sums[CALLS]! += 1;
    sums[INPUT]! += row.inputTokens;
    sums[CACHED]! += row.cachedInputTokens;
    sums[WRITE]! += row.cacheWriteTokens;
    sums[OUTPUT]! += row.outputTokens;
    this.counts.used++;
  }

  private accountFor(row: UsageRow): AccountCells | undefined {
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
