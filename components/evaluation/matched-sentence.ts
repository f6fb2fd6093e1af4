import type { PairedDiff } from "@/lib/evaluation/aggregate/matched";

/**
 * The matched comparison in words (issue 16): "at self-gc's view size, oldest-turn keeps 1.7
 * points fewer futures fully visible [0.8, 2.8]". lib/evaluation's `diffPts` is the reference's rate
 * minus the policy's, so a positive difference means the policy keeps *fewer*; the sentence states
 * the policy's side, with the bootstrap interval of that same quantity (so a "more" sentence gives
 * the interval of policy − reference, both ends flipped), then McNemar's exact p on the paired
 * cuts. One decimal, as a reader compares points.
 */
const WHAT: Record<PairedDiff["metric"], string> = {
  noImpact: "futures unaffected (nothing lost)",
  visibleNoImpact: "futures fully visible",
};

const one = (x: number) => (Math.abs(x) < 0.05 ? "0.0" : x.toFixed(1));

export function matchedSentence(reference: string, d: PairedDiff): string {
  const size = `at ${reference}'s view size, ${d.policy}`;
  const p = `McNemar p = ${formatP(d.mcnemarP)}, ${d.pairs} paired cut${d.pairs === 1 ? "" : "s"}`;
  if (Math.abs(d.diffPts) < 0.05) return `${size} keeps as many ${WHAT[d.metric]} [${one(d.ci95[0])}, ${one(d.ci95[1])}] (${p})`;
  if (d.diffPts > 0) return `${size} keeps ${one(d.diffPts)} points fewer ${WHAT[d.metric]} [${one(d.ci95[0])}, ${one(d.ci95[1])}] (${p})`;
  return `${size} keeps ${one(-d.diffPts)} points more ${WHAT[d.metric]} [${one(-d.ci95[1])}, ${one(-d.ci95[0])}] (${p})`;
}

/** A p-value for people: two significant digits, `< 0.001` below that, `1` at (rounded) one. */
export function formatP(p: number): string {
  if (p < 0.001) return "< 0.001";
  return p >= 0.995 ? "1" : p.toPrecision(2);
}
