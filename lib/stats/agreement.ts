import { wilson, Z95, type ProportionInterval } from "./wilson";

/**
 * Confusion matrices and the agreement rates read off them (judge vs human, judge vs judge,
 * rater vs rater). Rows are the first rater (or the truth), columns the second (or the prediction).
 */
export interface ConfusionMatrix<L extends string | number | boolean = string> {
  labels: L[];
  /** counts[i][j] = units the first rater put in labels[i] and the second in labels[j]. */
  counts: number[][];
  n: number;
}

/**
 * Builds a confusion matrix from two aligned label lists. Label order: `labels` when given
 * (labels outside it → RangeError, so a typo cannot silently vanish), otherwise first appearance
 * across `first` then `second`. Edge cases: different lengths → RangeError; empty lists → an
 * empty matrix with n = 0.
 */
export function confusionMatrix<L extends string | number | boolean>(first: readonly L[], second: readonly L[], labels?: readonly L[]): ConfusionMatrix<L> {
  if (first.length !== second.length) throw new RangeError(`rating lists differ in length: ${first.length} vs ${second.length}`);
  const order: L[] = labels ? [...labels] : [];
  const position = new Map<L, number>(order.map((l, i) => [l, i]));
  if (position.size !== order.length) throw new RangeError("labels must be distinct");
  const indexOf = (label: L): number => {
    const at = position.get(label);
    if (at !== undefined) return at;
    if (labels) throw new RangeError(`label ${String(label)} is not one of ${order.map(String).join(", ")}`);
    position.set(label, order.length);
    order.push(label);
    return order.length - 1;
  };
  const pairs = first.map((a, i) => [indexOf(a), indexOf(second[i]!)] as const);
  const counts = order.map(() => order.map(() => 0));
  for (const [i, j] of pairs) counts[i]![j]! += 1;
  return { labels: order, counts, n: first.length };
}

/** Checks a square matrix of non-negative finite counts and returns its total. */
export function checkSquare(counts: readonly (readonly number[])[]): number {
  let n = 0;
  counts.forEach((row, i) => {
    if (row.length !== counts.length) throw new RangeError(`confusion matrix must be square: row ${i} has ${row.length} cells, expected ${counts.length}`);
    row.forEach((cell, j) => {
      if (!Number.isFinite(cell) || cell < 0) throw new RangeError(`cell [${i}][${j}] must be a count ≥ 0, got ${cell}`);
      n += cell;
    });
  });
  return n;
}

/**
 * Share of units on which the two raters agree (the diagonal over n), with a Wilson interval —
 * LangSmith's "alignment score", with the uncertainty nobody reports. Edge case: n = 0 → NaN
 * rate, [0, 1] interval.
 */
export function percentAgreement(counts: readonly (readonly number[])[], z: number = Z95): ProportionInterval {
  const n = checkSquare(counts);
  let agree = 0;
  counts.forEach((row, i) => (agree += row[i]!));
  return wilson(agree, n, z);
}

/**
 * Accuracy of predictions against a reference (judge verdicts against human labels), with a
 * Wilson interval. Same edge cases as `percentAgreement`; lists must be aligned.
 */
export function accuracy<L extends string | number | boolean>(truth: readonly L[], predicted: readonly L[], z: number = Z95): ProportionInterval {
  if (truth.length !== predicted.length) throw new RangeError(`label lists differ in length: ${truth.length} vs ${predicted.length}`);
  let correct = 0;
  truth.forEach((t, i) => {
    if (t === predicted[i]) correct++;
  });
  return wilson(correct, truth.length, z);
}
