import { abSides } from "../../evaluation/llm-judge/ab-packet";
import type { CutRef } from "../label-schema";
import { abItemId, cutKey, dependencyItemId, failureItemId, type AbItem, type AbReason, type DependencyItem, type FailureCategoryItem } from "./items";

/**
 * Builds the three queues from evaluation results. Input is one row per judge × policy × cut (what
 * an evaluation run stores); output is in a stable order (runId, sessionId, cut, policy) so every
 * reviewer walks the same sequence and rebuilding is idempotent.
 */
export interface JudgedCut {
  runId?: string;
  sessionId: string;
  cut: number;
  policy: string;
  /** `dependency` or `llm:<model>`. */
  judge: string;
  noImpact: boolean;
}

const refOf = (r: JudgedCut): CutRef => ({ sessionId: r.sessionId, cut: r.cut, ...(r.runId !== undefined ? { runId: r.runId } : {}) });

function byCut(rows: readonly JudgedCut[]): Map<string, JudgedCut[]> {
  const sorted = [...rows].sort(
    (a, b) => cmp(a.runId ?? "", b.runId ?? "") || cmp(a.sessionId, b.sessionId) || a.cut - b.cut || cmp(a.policy, b.policy) || cmp(a.judge, b.judge),
  );
  const out = new Map<string, JudgedCut[]>();
  for (const row of sorted) {
    const key = cutKey(refOf(row));
    out.set(key, [...(out.get(key) ?? []), row]);
  }
  return out;
}

/** One item per evaluated cut (whatever the policies and judges). */
export function buildDependencyItems(rows: readonly JudgedCut[]): DependencyItem[] {
  return [...byCut(rows).values()].map((group) => ({ queue: "dependency", id: dependencyItemId(refOf(group[0]!)), ref: refOf(group[0]!) }));
}

/** One item per cut × policy that at least one judge found impacted. */
export function buildFailureItems(rows: readonly JudgedCut[]): FailureCategoryItem[] {
  const items = new Map<string, FailureCategoryItem>();
  for (const group of byCut(rows).values()) {
    for (const row of group) {
      if (row.noImpact) continue;
      const ref = refOf(row);
      const id = failureItemId(ref, row.policy);
      const item = items.get(id) ?? { queue: "failure_category" as const, id, ref, policy: row.policy, judges: [] };
      if (!item.judges.includes(row.judge)) item.judges.push(row.judge);
      items.set(id, item);
    }
  }
  return [...items.values()];
}

export interface AbItemOptions {
  /** Seed of the side coin (store it with the queue): the same seed gives the same sides. */
  seed: number;
  /** Only these unordered policy pairs (default: every pair judged at a cut). */
  pairs?: readonly (readonly [string, string])[];
  /**
   * `disagreements` (default): only cuts where a judge tells the pair apart or two judges disagree;
   * `all`: every cut where both policies were judged (concordant ones too, with no reasons) — a
   * creator calibrating a judge needs the cuts it called alike as well.
   */
  cuts?: AbCuts;
}

/** Which cuts of a pair an A/B queue holds (see AbItemOptions.cuts). */
export const AB_CUTS = ["disagreements", "all"] as const;
export type AbCuts = (typeof AB_CUTS)[number];

/**
 * A/B items from disagreements at a cut, for each unordered pair of policies:
 * - `policies-disagree`: one judge passed one policy and failed the other;
 * - `judges-disagree`: two judges order the pair differently (e.g. the dependency judge passes
 *   both, the LLM judge only one) — this is how a judge disagreement on a single policy reaches a
 *   two-projection comparison.
 * Sides come from lib/evaluation's seeded coin (`abSides`), keyed by the cut and the pair. With
 * `cuts: "all"` a pair judged at a cut is an item even when nothing disagrees (empty reasons).
 */
export function buildAbItems(rows: readonly JudgedCut[], options: AbItemOptions): AbItem[] {
  const wanted = options.pairs ? new Set(options.pairs.map(([x, y]) => [x, y].sort().join("|"))) : undefined;
  const items: AbItem[] = [];
  for (const group of byCut(rows).values()) {
    const ref = refOf(group[0]!);
    const verdicts = new Map<string, Map<string, boolean>>();
    for (const row of group) verdicts.set(row.judge, (verdicts.get(row.judge) ?? new Map()).set(row.policy, row.noImpact));
    const policies = [...new Set(group.map((r) => r.policy))];
    for (let i = 0; i < policies.length; i++) {
      for (let j = i + 1; j < policies.length; j++) {
        const [x, y] = [policies[i]!, policies[j]!];
        if (wanted && !wanted.has(`${x}|${y}`)) continue;
        const reasons = pairReasons(verdicts, x, y);
        if (reasons.length === 0 && (options.cuts !== "all" || !judgedTogether(verdicts, x, y))) continue;
        items.push({ queue: "ab", id: abItemId(ref, x, y), ref, sides: abSides(options.seed, cutKey(ref), x, y), reasons });
      }
    }
  }
  return items;
}

function pairReasons(verdicts: Map<string, Map<string, boolean>>, x: string, y: string): AbReason[] {
  const preference = new Map<string, number>();
  for (const [judge, byPolicy] of verdicts) {
    const a = byPolicy.get(x);
    const b = byPolicy.get(y);
    if (a !== undefined && b !== undefined) preference.set(judge, Number(a) - Number(b));
  }
  const reasons: AbReason[] = [];
  for (const [judge, p] of preference) if (p !== 0) reasons.push({ type: "policies-disagree", judge });
  const judges = [...preference.keys()];
  for (let i = 0; i < judges.length; i++) {
    for (let j = i + 1; j < judges.length; j++) {
      if (preference.get(judges[i]!) !== preference.get(judges[j]!)) reasons.push({ type: "judges-disagree", judges: [judges[i]!, judges[j]!] });
    }
  }
  return reasons;
}

/** Some judge gave a verdict on both policies at the cut. */
function judgedTogether(verdicts: Map<string, Map<string, boolean>>, x: string, y: string): boolean {
  return [...verdicts.values()].some((byPolicy) => byPolicy.has(x) && byPolicy.has(y));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
