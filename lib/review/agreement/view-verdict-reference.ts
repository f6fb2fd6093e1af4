import type { ReviewLabel, ViewVerdict } from "../label-schema";
import { itemIdForLabel } from "../queue/progress";

/**
 * The verdict people gave one view, for measuring a judge against it: per item, the verdict most
 * of its current labels give (one label: that label's). Why a majority and not every label: an
 * item labelled twice would otherwise count twice in the judge's agreement. A tie (two labellers
 * who disagree) gives no reference: the item is `split`, left out of the judge's figures and
 * counted, since the labellers' own disagreement is reported beside them.
 */
export function referenceVerdicts(current: readonly ReviewLabel[]): { verdicts: Map<string, ViewVerdict>; split: string[] } {
  const votes = new Map<string, Map<ViewVerdict, number>>();
  for (const label of current) {
    if (label.kind !== "view_verdict" || label.retracted) continue;
    const item = itemIdForLabel(label)!;
    const counts = votes.get(item) ?? new Map<ViewVerdict, number>();
    counts.set(label.verdict, (counts.get(label.verdict) ?? 0) + 1);
    votes.set(item, counts);
  }
  const verdicts = new Map<string, ViewVerdict>();
  const split: string[] = [];
  for (const [item, counts] of votes) {
    const ranked = [...counts].sort((a, b) => b[1] - a[1]);
    if (ranked.length > 1 && ranked[0]![1] === ranked[1]![1]) split.push(item);
    else verdicts.set(item, ranked[0]![0]);
  }
  return { verdicts, split };
}
