import {
  calibrateNoImpact,
  type AbOutcome,
  type CalibratedRates,
  type CalibrationCase,
  type CalibrationOptions,
} from "../../evaluation/llm-judge/ab-calibrate";
import type { ReviewLabel } from "../label-schema";
import type { JudgedCut } from "../queue/build-items";
import { abItemId } from "../queue/items";

/**
 * Seed 000's A/B calibration with people as the A/B judge: the single-prompt verdicts of `judge`
 * for policies `a` and `b` at every cut judged under both, and for each cut the reviewers' A/B
 * answer on that pair mapped from the hidden sides back to policies (A of the calibration = `a`).
 * Several reviewers on one item → the majority outcome; an even split is left unaudited. The rule
 * itself is lib/evaluation/llm-judge/ab-calibrate.ts (ties count as both impacted by default), unchanged.
 */
export function calibrateWithReviewers(
  rows: readonly JudgedCut[],
  judge: string,
  a: string,
  b: string,
  labels: readonly ReviewLabel[],
  options: CalibrationOptions = {},
): CalibratedRates & { cases: CalibrationCase[] } {
  const votes = new Map<string, Map<AbOutcome, number>>();
  for (const l of labels) {
    if (l.kind !== "ab" || l.retracted) continue;
    const pair = [l.sides.A, l.sides.B];
    if (!pair.includes(a) || !pair.includes(b)) continue;
    const outcome: AbOutcome = l.verdict === "tie" ? "tie" : (l.verdict === "A_better") === (l.sides.A === a) ? "A_better" : "B_better";
    const id = abItemId(l.ref, a, b);
    const tally = votes.get(id) ?? new Map<AbOutcome, number>();
    votes.set(id, tally.set(outcome, (tally.get(outcome) ?? 0) + 1));
  }
  const cuts = new Map<string, { ref: JudgedCut; a?: boolean; b?: boolean }>();
  for (const row of rows) {
    if (row.judge !== judge || (row.policy !== a && row.policy !== b)) continue;
    const id = abItemId(row, a, b);
    const entry = cuts.get(id) ?? { ref: row };
    entry[row.policy === a ? "a" : "b"] = row.noImpact;
    cuts.set(id, entry);
  }
  const cases: CalibrationCase[] = [];
  for (const [id, entry] of cuts) {
    if (entry.a === undefined || entry.b === undefined) continue;
    const ab = majority(votes.get(id));
    cases.push({ a: entry.a, b: entry.b, ...(ab ? { ab } : {}) });
  }
  return { ...calibrateNoImpact(cases, options), cases };
}

function majority(tally: ReadonlyMap<AbOutcome, number> | undefined): AbOutcome | undefined {
  if (!tally) return undefined;
  const sorted = [...tally].sort((x, y) => y[1] - x[1]);
  return sorted.length > 1 && sorted[0]![1] === sorted[1]![1] ? undefined : sorted[0]![0];
}
