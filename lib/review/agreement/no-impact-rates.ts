import { wilson, type ProportionInterval } from "../../stats/wilson";
import { verdictKey, type ConsensusVerdict } from "../human-verdict";
import type { JudgedCut } from "../queue/build-items";

/**
 * The no-impact rate per policy re-estimated from human labels, shown beside the judge's. Humans
 * review a subset of cuts, so three rates are reported, each with its Wilson interval and n:
 * the judge on every cut it judged, the judge on the reviewed cuts only, and the humans on the same
 * reviewed cuts — the last two are the like-for-like comparison.
 */
export interface PolicyRates {
  policy: string;
  judge: ProportionInterval;
  judgeOnReviewed: ProportionInterval;
  human: ProportionInterval;
}

export function noImpactRates(rows: readonly JudgedCut[], human: ReadonlyMap<string, ConsensusVerdict>, judge: string): PolicyRates[] {
  const tally = new Map<string, { all: number; pass: number; reviewed: number; judgePass: number; humanPass: number }>();
  for (const row of rows) {
    if (row.judge !== judge) continue;
    const t = tally.get(row.policy) ?? { all: 0, pass: 0, reviewed: 0, judgePass: 0, humanPass: 0 };
    tally.set(row.policy, t);
    t.all++;
    if (row.noImpact) t.pass++;
    const reference = human.get(verdictKey(row.sessionId, row.cut, row.policy))?.noImpact;
    if (reference === undefined) continue;
    t.reviewed++;
    if (row.noImpact) t.judgePass++;
    if (reference) t.humanPass++;
  }
  return [...tally]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([policy, t]) => ({
      policy,
      judge: wilson(t.pass, t.all),
      judgeOnReviewed: wilson(t.judgePass, t.reviewed),
      human: wilson(t.humanPass, t.reviewed),
    }));
}
