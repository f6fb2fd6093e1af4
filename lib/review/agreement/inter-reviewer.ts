import { confusionMatrix, percentAgreement } from "../../stats/agreement";
import { cohenKappa, fleissKappa, ratingCounts, type KappaResult } from "../../stats/kappa";
import { wilson, type ProportionInterval } from "../../stats/wilson";

/**
 * Agreement between reviewers on items several of them labeled. Two reviewers → Cohen's κ over the
 * items both labeled (with the Fleiss–Cohen–Everitt interval) and percent agreement; more →
 * Fleiss' κ over the items that have the usual number m of ratings (the modal count; items with
 * another count are `excluded`, since Fleiss needs the same m per item) and the share of items
 * on which every reviewer agreed. Every rate carries a Wilson interval; κ carries its interval
 * (Fleiss' is the H₀ scale, indicative only — see lib/stats/kappa.ts).
 */
export interface Rating<L> {
  unit: string;
  reviewer: string;
  value: L;
}

export interface InterReviewerAgreement<L> {
  method: "cohen" | "fleiss" | "none";
  reviewers: string[];
  categories: L[];
  /** Items used (labeled by ≥ 2 reviewers, with the modal count for Fleiss). */
  units: number;
  /** Multi-labeled items left out (Fleiss: another rating count). */
  excluded: number;
  kappa: KappaResult | undefined;
  /** Cohen: diagonal share; Fleiss: share of items on which all reviewers agreed. */
  percent: ProportionInterval;
}

export function interReviewerAgreement<L extends string | boolean>(ratings: readonly Rating<L>[], categories: readonly L[]): InterReviewerAgreement<L> {
  const byUnit = new Map<string, Map<string, L>>();
  for (const r of ratings) {
    const unit = byUnit.get(r.unit) ?? new Map<string, L>();
    if (unit.has(r.reviewer)) throw new RangeError(`reviewer ${r.reviewer} rated ${r.unit} twice; pass current labels only`);
    byUnit.set(r.unit, unit.set(r.reviewer, r.value));
  }
  const multi = [...byUnit.values()].filter((u) => u.size >= 2);
  const reviewers = [...new Set(multi.flatMap((u) => [...u.keys()]))].sort();
  const base = { reviewers, categories: [...categories] };
  if (multi.length === 0) return { ...base, method: "none", units: 0, excluded: 0, kappa: undefined, percent: wilson(0, 0) };
  if (reviewers.length === 2) {
    const [r1, r2] = reviewers as [string, string];
    const matrix = confusionMatrix(
      multi.map((u) => u.get(r1)!),
      multi.map((u) => u.get(r2)!),
      categories,
    );
    return { ...base, method: "cohen", units: multi.length, excluded: 0, kappa: cohenKappa(matrix.counts), percent: percentAgreement(matrix.counts) };
  }
  const sizes = new Map<number, number>();
  for (const u of multi) sizes.set(u.size, (sizes.get(u.size) ?? 0) + 1);
  const m = [...sizes].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const used = multi.filter((u) => u.size === m).map((u) => [...u.values()]);
  const unanimous = used.filter((values) => values.every((v) => v === values[0])).length;
  return {
    ...base,
    method: "fleiss",
    units: used.length,
    excluded: multi.length - used.length,
    kappa: fleissKappa(ratingCounts(used, categories)),
    percent: wilson(unanimous, used.length),
  };
}
