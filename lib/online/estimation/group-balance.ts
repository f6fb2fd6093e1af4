import { CALLS, type UsageAggregator } from "../assignment/aggregate";
import { describeRule, type AssignRule } from "../assignment/assign";
import { plural } from "../../util/plural";
import type { Group } from "../usage/schema";

/** Accounts and calls a group holds after the rollout (what the estimate compares). */
export interface GroupCount {
  accounts: number;
  calls: number;
}

/**
 * Whether the split left something to compare: `ok` when both groups hold calls, `empty-group`
 * when every assigned call fell in one group, `no-calls` when none is left at all.
 */
export type GroupBalance =
  | { status: "ok"; counts: Record<Group, GroupCount> }
  | { status: "empty-group"; empty: Group; full: Group; counts: Record<Group, GroupCount> }
  | { status: "no-calls"; counts: Record<Group, GroupCount> };

/** Counts the post-rollout accounts and calls of each group in an aggregation. */
export function groupBalance(agg: UsageAggregator): GroupBalance {
  const counts: Record<Group, GroupCount> = { treatment: { accounts: 0, calls: 0 }, control: { accounts: 0, calls: 0 } };
  for (const account of agg.accounts.values()) {
    let calls = 0;
    for (const sums of account.post.values()) calls += sums[CALLS]!;
    if (calls === 0) continue;
    counts[account.group].accounts++;
    counts[account.group].calls += calls;
  }
  const { treatment, control } = counts;
  if (treatment.calls > 0 && control.calls > 0) return { status: "ok", counts };
  if (treatment.calls === 0 && control.calls === 0) return { status: "no-calls", counts };
  return treatment.calls === 0
    ? { status: "empty-group", empty: "treatment", full: "control", counts }
    : { status: "empty-group", empty: "control", full: "treatment", counts };
}

export interface BalanceContext {
  rule: AssignRule;
  /** The log's mapped group column, offered as the fix when another rule emptied a group. */
  groupColumn?: string | undefined;
  /** Calls the rule could not assign (no account, or a group label naming neither group). */
  unassigned: number;
}

/**
 * The warning a report gives instead of a meaningless reduction: which group is empty, how much
 * the other holds, under which rule, and what to try. `null` when both groups hold calls.
 * Plain text, the same words in the studio and on the CLI's stderr.
 */
export function describeGroupBalance(balance: GroupBalance, context: BalanceContext): string | null {
  if (balance.status === "ok") return null;
  const rule = describeRule(context.rule);
  const hints: string[] = [];
  if (context.rule.kind !== "column" && context.groupColumn !== undefined)
    hints.push(`the log has a group column (${JSON.stringify(context.groupColumn)}): assign by it (column:${context.groupColumn})`);
  if (context.rule.kind === "column" && context.unassigned > 0)
    hints.push(
      `${plural(context.unassigned, "call")} had a group label naming neither group (treatment, test, variant, b, 1… against control, baseline, holdout, a, 0…)`,
    );
  if (context.rule.kind === "email-pivot") hints.push("or move the pivot character, or split by a salted hash");
  const hint = hints.length > 0 ? ` Try: ${hints.join("; ")}.` : "";
  if (balance.status === "no-calls") return `No call is left in either group under ${rule}: widen the window or change the filters or the rule.${hint}`;
  const full = balance.counts[balance.full];
  return `The ${balance.empty} group is empty: all ${plural(full.accounts, "account")} (${plural(full.calls, "call")}) fell in ${balance.full} under ${rule}, so there is nothing to compare.${hint}`;
}
