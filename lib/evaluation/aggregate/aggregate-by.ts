import { aggregatePolicies, type EvaluationRecord, type PolicyAggregate } from "./aggregate";

/**
 * Per-group figures of a replay evaluation (issue 4's breakdowns by workload and by format): the
 * records split by `keyOf`, each group aggregated by the same aggregatePolicies as the whole suite,
 * so a group's row is exactly the suite row computed over that subset — the CLI's `--by` and the
 * studio's Breakdown read this one function.
 */
export interface GroupAggregate {
  group: string;
  /** Distinct sessions and (session, cut) pairs with at least one judged unit in the group. */
  sessions: number;
  cuts: number;
  policies: PolicyAggregate[];
}

/**
 * Groups in `groupOrder` first (those with records only), then any other group by name. Every
 * group lists every policy of `policyOrder` (with zero rows where it has no record), then any other
 * policy by id, as aggregatePolicies does.
 */
export function aggregateBy(
  records: Iterable<EvaluationRecord>,
  keyOf: (record: EvaluationRecord) => string,
  policyOrder: readonly string[] = [],
  groupOrder: readonly string[] = [],
): GroupAggregate[] {
  const groups = new Map<string, EvaluationRecord[]>();
  for (const record of records) {
    const key = keyOf(record);
    const list = groups.get(key);
    if (list) list.push(record);
    else groups.set(key, [record]);
  }
  const known = new Set(groupOrder);
  const keys = [...groupOrder.filter((g) => groups.has(g)), ...[...groups.keys()].filter((g) => !known.has(g)).sort()];
  return keys.map((group) => {
    const list = groups.get(group)!;
    return {
      group,
      sessions: new Set(list.map((r) => r.sessionId)).size,
      cuts: new Set(list.map((r) => `${r.sessionId}#${r.cut}`)).size,
      policies: aggregatePolicies(list, policyOrder),
    };
  });
}

/** A key function from a per-session label (session id → group), with `fallback` for sessions it does not know. */
export function bySession(labels: ReadonlyMap<string, string>, fallback = "unknown"): (record: EvaluationRecord) => string {
  return (record) => labels.get(record.sessionId) ?? fallback;
}
