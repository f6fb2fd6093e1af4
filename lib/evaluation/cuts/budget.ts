import { z } from "zod";

/**
 * Matched budgets (issue 16): the harness gives every policy the same target view size at a cut,
 * through one parameter (`runPolicy`'s `targetTokens`), so policies are compared at the same
 * amount of removed context rather than each at its own operating point.
 *
 * - `sweep` — a target share of the prefix removed, the same for every policy at every cut
 *   (`--sweep 20,40,60`): target = round(prefix × (1 − pct / 100)).
 * - `match` — the view size the reference policy reached at that cut (`--match self-gc`): the
 *   reference runs at its own settings first; every other policy then compacts to the reference's
 *   `tokensAfter`. When the reference did not compact there (a pending plan), nobody does: the
 *   target equals the prefix and the harness leaves it unchanged.
 * A unit without a budget runs the policy at its own settings.
 */
export type Budget = { kind: "sweep"; pct: number } | { kind: "match"; reference: string };

export const SweepLevelsSchema = z
  .array(z.number().int("a budget is a whole percent").min(1, "a budget is at least 1%").max(95, "a budget is at most 95%"))
  .min(1, "give at least one budget")
  .max(20, "at most 20 budgets")
  .refine((levels) => new Set(levels).size === levels.length, "budgets must be distinct");

/** The stable key of a budget inside a unit key: `budget-30`, `match-self-gc`. */
export function budgetKey(budget: Budget): string {
  return budget.kind === "sweep" ? `budget-${budget.pct}` : `match-${budget.reference}`;
}

/** Parses `budgetKey` back (undefined for anything else, e.g. a unit at the policy's own settings). */
export function parseBudgetKey(key: string): Budget | undefined {
  const sweep = /^budget-(\d+)$/.exec(key);
  if (sweep) return { kind: "sweep", pct: Number(sweep[1]) };
  const match = /^match-(.+)$/.exec(key);
  return match ? { kind: "match", reference: match[1]! } : undefined;
}

/** The target view size of a sweep budget at a prefix of `prefixTokens`. */
export function sweepTarget(prefixTokens: number, pct: number): number {
  return Math.round(prefixTokens * (1 - pct / 100));
}

/** `--sweep 20,40,60` → [20, 40, 60], validated (ZodError with each issue located). */
export function parseSweepText(text: string): number[] {
  const levels = text
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => (/^\d+$/.test(x) ? Number(x) : Number.NaN));
  return SweepLevelsSchema.parse(levels);
}
