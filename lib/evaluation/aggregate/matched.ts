import { meanDifference, pairedBootstrap } from "../../stats/bootstrap";
import { mcnemarExact } from "../../stats/mcnemar";
import { aggregatePolicies, policyFigures, round, type EvaluationRecord, type PolicyFigures } from "./aggregate";
import { budgetKey } from "../cuts/budget";

/**
 * The matched comparison (issue 16, `--match POLICY`): at every cut each policy compacted to the
 * view size the reference reached there, so a difference in no-impact is not a difference in how
 * much was removed. Per policy the usual figures over its matched records, and per policy and
 * metric the paired difference against the reference on the same cuts:
 * - `diffPts` = 100 · (rate of the reference − rate of the policy), in points: positive means the
 *   reference kept more futures unaffected;
 * - `ci95`: percentile bootstrap over sessions (whole sessions resampled, 2,000 replicates, seed 16):
 *   cuts of one session are not independent;
 * - `mcnemarP`: McNemar's exact test on the discordant cuts.
 * Metrics: `noImpact` (the headline) and `visibleNoImpact` (everything visible, no restore).
 *
 * A policy cannot always hit the size: it removes whole messages or turns, so it may stop short of
 * it or overshoot it, and a policy judged at a larger or smaller view than the reference is not
 * compared at the same budget after all. `sizeMatched` repeats the difference over the cuts where
 * the reference compacted and the two views are within `SIZE_MATCH_TOLERANCE` of the prefix of
 * each other (where the reference stayed pending both views are the prefix: a tie that says
 * nothing), so a reader sees how much of a lead is left where the sizes really match.
 */
export const MATCHED_METRICS = ["noImpact", "visibleNoImpact"] as const;
export type MatchedMetric = (typeof MATCHED_METRICS)[number];

export type MatchedPolicy = { policy: string } & PolicyFigures;

/** Two views count as the same size when their token counts differ by at most this share of the prefix. */
export const SIZE_MATCH_TOLERANCE = 0.05;

interface Difference {
  /** Cuts both were judged at. */
  pairs: number;
  diffPts: number;
  ci95: [number, number];
  mcnemarP: number;
}

export interface PairedDiff extends Difference {
  policy: string;
  metric: MatchedMetric;
  /** The same difference over the cuts where the reference compacted and the views are the same size (SIZE_MATCH_TOLERANCE); null: no such cut. */
  sizeMatched: Difference | null;
}

export interface MatchedComparison {
  reference: string;
  policies: MatchedPolicy[];
  paired: PairedDiff[];
}

export const MATCHED_BOOTSTRAP_SEED = 16;

export function aggregateMatched(
  records: Iterable<EvaluationRecord>,
  reference: string,
  policyOrder: readonly string[] = [],
  iterations = 2_000,
): MatchedComparison {
  const key = budgetKey({ kind: "match", reference });
  const matched = [...records].filter((r) => r.budget === key);
  const policies = aggregatePolicies(matched, policyOrder)
    .filter((p) => p.n > 0)
    .map((p): MatchedPolicy => ({ policy: p.id, ...policyFigures(p) }));
  const byCut = new Map<string, EvaluationRecord>();
  for (const r of matched) if (r.policy === reference) byCut.set(`${r.sessionId}#${r.cut}`, r);
  const paired: PairedDiff[] = [];
  for (const p of policies) {
    if (p.policy === reference) continue;
    const own = matched.filter((r) => r.policy === p.policy);
    const sameSize = own.filter((r) => {
      const ref = byCut.get(`${r.sessionId}#${r.cut}`);
      return ref !== undefined && ref.tokensAfter < ref.prefixTokens && sameViewSize(r, ref);
    });
    for (const metric of MATCHED_METRICS) {
      const diff = pairedDifference(own, byCut, metric, iterations);
      if (!diff) continue;
      paired.push({ policy: p.policy, metric, ...diff, sizeMatched: pairedDifference(sameSize, byCut, metric, iterations) ?? null });
    }
  }
  return { reference, policies, paired };
}

/** Whether two views of one cut are the same size, within SIZE_MATCH_TOLERANCE of the prefix. */
export function sameViewSize(a: Pick<EvaluationRecord, "tokensAfter" | "prefixTokens">, b: Pick<EvaluationRecord, "tokensAfter">): boolean {
  return Math.abs(a.tokensAfter - b.tokensAfter) <= SIZE_MATCH_TOLERANCE * a.prefixTokens;
}

function outcome(record: EvaluationRecord, metric: MatchedMetric): boolean | undefined {
  return metric === "noImpact" ? record.noImpact : record.visibleNoImpact;
}

function pairedDifference(
  records: EvaluationRecord[],
  references: Map<string, EvaluationRecord>,
  metric: MatchedMetric,
  iterations: number,
): Difference | undefined {
  const pairs: { a: number; b: number; session: string }[] = [];
  for (const r of records) {
    const ref = references.get(`${r.sessionId}#${r.cut}`);
    const a = ref ? outcome(ref, metric) : undefined;
    const b = outcome(r, metric);
    if (a === undefined || b === undefined) continue;
    pairs.push({ a: a ? 1 : 0, b: b ? 1 : 0, session: r.sessionId });
  }
  if (pairs.length === 0) return undefined;
  const onlyRef = pairs.filter((p) => p.a > p.b).length;
  const onlyPolicy = pairs.filter((p) => p.b > p.a).length;
  const boot = pairedBootstrap(pairs, meanDifference, { seed: MATCHED_BOOTSTRAP_SEED, iterations, cluster: (p) => p.session });
  return {
    pairs: pairs.length,
    diffPts: round(100 * boot.estimate),
    ci95: [round(100 * boot.low), round(100 * boot.high)],
    mcnemarP: mcnemarExact(onlyRef, onlyPolicy).pValue,
  };
}
