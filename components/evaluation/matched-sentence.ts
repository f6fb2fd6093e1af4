import { SIZE_MATCH_TOLERANCE, type PairedDiff } from "@/lib/evaluation/aggregate/matched";

/**
 * The matched comparison in words (issue 16): "at self-gc's view size, oldest-turn keeps 1.7
 * points fewer futures fully visible [0.8, 2.8]". lib/evaluation's `diffPts` is the reference's rate
 * minus the policy's, so a positive difference means the policy keeps *fewer*; the sentence states
 * the policy's side, with the bootstrap interval of that same quantity (so a "more" sentence gives
 * the interval of policy − reference, both ends flipped), then McNemar's exact p on the paired
 * cuts. One decimal, as a reader compares points. When the comparison has cuts where the two views
 * really are the same size (`sizeMatched`), the sentence adds the difference there, since a policy
 * that stopped short of the size or overshot it was judged at another budget.
 */
const WHAT: Record<PairedDiff["metric"], string> = {
  noImpact: "futures unaffected (nothing lost)",
  visibleNoImpact: "futures fully visible",
};

const one = (x: number) => (Math.abs(x) < 0.05 ? "0.0" : x.toFixed(1));

type Difference = Pick<PairedDiff, "pairs" | "diffPts" | "ci95" | "mcnemarP">;

export function matchedSentence(reference: string, d: Omit<PairedDiff, "sizeMatched"> & { sizeMatched?: PairedDiff["sizeMatched"] }): string {
  const whole = `at ${reference}'s view size, ${d.policy} ${difference(d, WHAT[d.metric])}`;
  if (!d.sizeMatched) return whole;
  const tolerance = Math.round(100 * SIZE_MATCH_TOLERANCE);
  return `${whole}; where ${reference} compacted and the two views are within ${tolerance}% of the prefix of each other, it ${difference(d.sizeMatched, "")}`;
}

/** "keeps 1.7 points fewer <what> [0.8, 2.8] (McNemar p = 0.031, 44 paired cuts)"; without `what` the noun is left out. */
function difference(d: Difference, what: string): string {
  const noun = what ? ` ${what}` : "";
  const p = `McNemar p = ${formatP(d.mcnemarP)}, ${d.pairs} paired cut${d.pairs === 1 ? "" : "s"}`;
  if (Math.abs(d.diffPts) < 0.05) return `keeps as many${noun} [${one(d.ci95[0])}, ${one(d.ci95[1])}] (${p})`;
  if (d.diffPts > 0) return `keeps ${one(d.diffPts)} points fewer${noun} [${one(d.ci95[0])}, ${one(d.ci95[1])}] (${p})`;
  return `keeps ${one(-d.diffPts)} points more${noun} [${one(-d.ci95[1])}, ${one(-d.ci95[0])}] (${p})`;
}

/** A p-value for people: two significant digits, `< 0.001` below that, `1` at (rounded) one. */
export function formatP(p: number): string {
  if (p < 0.001) return "< 0.001";
  return p >= 0.995 ? "1" : p.toPrecision(2);
}
