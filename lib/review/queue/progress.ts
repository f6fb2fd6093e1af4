import type { ReviewLabel } from "../label-schema";
import { abItemId, dependencyItemId, failureItemId, viewVerdictItemId, type QueueItem, type QueueKind } from "./items";

/**
 * Overlap and completion. Admins set per queue how many reviewers must complete an item (overlap
 * ≥ 1; 2 or more lets agreement be measured). A reviewer completes an item with one current label:
 * a `cut_review` for a dependency item, a `failure_category` label, an `ab` label. An item is done
 * when that many distinct reviewers completed it.
 */
export type Overlap = Readonly<Record<QueueKind, number>>;

/** The item a label completes, or undefined for labels that complete nothing alone (dependency decisions). */
export function itemIdForLabel(label: ReviewLabel): string | undefined {
  switch (label.kind) {
    case "cut_review":
      return dependencyItemId(label.ref);
    case "failure_category":
      return failureItemId(label.ref, label.policy);
    case "ab":
      return abItemId(label.ref, label.sides.A, label.sides.B);
    case "view_verdict":
      return viewVerdictItemId(label.ref, label.policy, label.budget, label.viewDigest);
    case "dependency":
      return undefined;
  }
}

/** Reviewers who completed each item, from current labels (retracted ones do not count). */
export function completionsFromLabels(current: Iterable<ReviewLabel>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const label of current) {
    const id = itemIdForLabel(label);
    if (!id || label.retracted) continue;
    out.set(id, (out.get(id) ?? new Set()).add(label.reviewer));
  }
  return out;
}

export function checkOverlap(overlap: Overlap): void {
  for (const [queue, n] of Object.entries(overlap))
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`overlap for ${queue} must be a whole number ≥ 1, got ${n}`);
}

export function isDone(item: QueueItem, completions: ReadonlyMap<string, ReadonlySet<string>>, overlap: Overlap): boolean {
  return (completions.get(item.id)?.size ?? 0) >= overlap[item.queue];
}

export interface QueueProgress {
  queue: QueueKind;
  items: number;
  done: number;
  /** Completed labels (an item counts once per reviewer). */
  labels: number;
  byReviewer: Record<string, number>;
}

/** Progress per queue and per reviewer, for the studio's progress bars. */
export function queueProgress(items: readonly QueueItem[], completions: ReadonlyMap<string, ReadonlySet<string>>, overlap: Overlap): QueueProgress[] {
  checkOverlap(overlap);
  const out = new Map<QueueKind, QueueProgress>();
  for (const item of items) {
    const row = out.get(item.queue) ?? { queue: item.queue, items: 0, done: 0, labels: 0, byReviewer: {} };
    row.items++;
    if (isDone(item, completions, overlap)) row.done++;
    for (const reviewer of completions.get(item.id) ?? []) {
      row.labels++;
      row.byReviewer[reviewer] = (row.byReviewer[reviewer] ?? 0) + 1;
    }
    out.set(item.queue, row);
  }
  return [...out.values()];
}
