import { buildHistory, type LabelHistory } from "../history";
import type { ReviewLabel } from "../label-schema";
import { itemIdForLabel } from "./progress";

/**
 * A queue's label history together with the completions it implies, extended by the labels added
 * since instead of rebuilt from every label. Why: the studio needs both on every open and every
 * progress refresh, labels arrive all the time while reviewers work, and rebuilding from all of a
 * queue's labels — or even copying the maps once per new label — made every request cost more the
 * longer the queue was worked on. `add` costs what the added labels' threads cost, whatever the
 * size of the queue.
 *
 * The maps are updated in place: read them synchronously (or copy what must stay fixed across an
 * `await`, as the agreement does with `currentLabels`). `add` checks the whole batch before it
 * changes anything, so a refused batch leaves the state as it was.
 * The result equals `buildHistory` + `completionsFromLabels(currentLabels(…))` over all labels
 * (tests/unit/review/label-state.test.ts checks that on random label streams), threads aside that
 * appear in the order they were first added rather than sorted.
 */
export class LabelState {
  private readonly threads = new Map<string, readonly ReviewLabel[]>();
  /** Item id → reviewers with a current (not retracted) completing label on it. */
  private readonly reviewersByItem = new Map<string, Set<string>>();
  /** `item \u0000 reviewer` → how many live threads complete that item for that reviewer (two threads may). */
  private readonly live = new Map<string, number>();
  private count = 0;

  get history(): LabelHistory {
    return this.threads;
  }

  get completions(): ReadonlyMap<string, ReadonlySet<string>> {
    return this.reviewersByItem;
  }

  /** Label versions added so far. */
  get versions(): number {
    return this.count;
  }

  /**
   * Appends `added` (in any order). Throws the LabelHistoryError `buildHistory` would throw for the
   * union (a duplicate version, a missing previous version, a thread that changes its kind,
   * reviewer or item) before changing anything.
   */
  add(added: Iterable<ReviewLabel>): void {
    const byThread = new Map<string, ReviewLabel[]>();
    let n = 0;
    for (const label of added) {
      const list = byThread.get(label.labelId);
      if (list) list.push(label);
      else byThread.set(label.labelId, [label]);
      n++;
    }
    // Every touched thread rebuilt with buildHistory's own ordering and checks first (a thread is a handful of versions)…
    const rebuilt: [string, readonly ReviewLabel[] | undefined, readonly ReviewLabel[]][] = [];
    for (const [labelId, labels] of byThread) {
      const before = this.threads.get(labelId);
      rebuilt.push([labelId, before, buildHistory([...(before ?? []), ...labels]).get(labelId)!]);
    }
    // …then applied, so nothing changes when one of them is refused.
    for (const [labelId, before, thread] of rebuilt) {
      this.shift(before?.at(-1), -1);
      this.shift(thread.at(-1), 1);
      this.threads.set(labelId, thread);
    }
    this.count += n;
  }

  private shift(label: ReviewLabel | undefined, by: 1 | -1): void {
    const item = label && !label.retracted ? itemIdForLabel(label) : undefined;
    if (!label || !item) return;
    const key = `${item}\u0000${label.reviewer}`;
    const n = (this.live.get(key) ?? 0) + by;
    if (n > 0) this.live.set(key, n);
    else this.live.delete(key);
    if (by === 1 && n === 1) {
      const reviewers = this.reviewersByItem.get(item);
      if (reviewers) reviewers.add(label.reviewer);
      else this.reviewersByItem.set(item, new Set([label.reviewer]));
    }
    if (by === -1 && n === 0) {
      const reviewers = this.reviewersByItem.get(item);
      reviewers?.delete(label.reviewer);
      if (reviewers?.size === 0) this.reviewersByItem.delete(item);
    }
  }
}
