import { accuracy, confusionMatrix, type ConfusionMatrix } from "../../stats/agreement";
import { cohenKappa, type KappaResult } from "../../stats/kappa";
import { wilson, type ProportionInterval } from "../../stats/wilson";
import { verdictKey, type ConsensusVerdict } from "../human-verdict";
import type { JudgedCut } from "../queue/build-items";

/**
 * How far each automatic judge can be trusted: its verdicts against the human reference
 * (`consensusVerdicts`) on the cut × policy units people reviewed. Units where reviewers split
 * evenly have no reference and are counted as `undecided`, never guessed.
 *
 * Confusion matrix rows are the human verdict, columns the judge's, labels in the order
 * no-impact, impacted.
 */
export type VerdictLabel = "no-impact" | "impacted";
export const VERDICT_LABELS: readonly VerdictLabel[] = ["no-impact", "impacted"];
const label = (noImpact: boolean): VerdictLabel => (noImpact ? "no-impact" : "impacted");

export interface JudgeAgreement {
  judge: string;
  n: number;
  undecided: number;
  matrix: ConfusionMatrix<VerdictLabel>;
  kappa: KappaResult;
  accuracy: ProportionInterval;
  /** Of the cuts humans found impacted, the share the judge also flagged (Wilson). */
  sensitivity: ProportionInterval;
}

export function judgeVersusHuman(rows: readonly JudgedCut[], human: ReadonlyMap<string, ConsensusVerdict>): JudgeAgreement[] {
  const byJudge = new Map<string, { truth: VerdictLabel[]; predicted: VerdictLabel[]; undecided: number }>();
  for (const row of rows) {
    const reference = human.get(verdictKey(row.sessionId, row.cut, row.policy));
    if (!reference) continue;
    const entry = byJudge.get(row.judge) ?? { truth: [], predicted: [], undecided: 0 };
    byJudge.set(row.judge, entry);
    if (reference.noImpact === undefined) {
      entry.undecided++;
      continue;
    }
    entry.truth.push(label(reference.noImpact));
    entry.predicted.push(label(row.noImpact));
  }
  return [...byJudge]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([judge, { truth, predicted, undecided }]) => {
      const matrix = confusionMatrix(truth, predicted, VERDICT_LABELS);
      const impacted = matrix.counts[1]!;
      return {
        judge,
        n: truth.length,
        undecided,
        matrix,
        kappa: cohenKappa(matrix.counts),
        accuracy: accuracy(truth, predicted),
        sensitivity: wilson(impacted[1]!, impacted[0]! + impacted[1]!),
      };
    });
}
