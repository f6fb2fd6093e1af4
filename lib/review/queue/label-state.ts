import { buildHistory, type LabelHistory } from "../history";
import type { ReviewLabel } from "../label-schema";
import { itemIdForLabel } from "./progress";

/**
 * A queue's label history together with the completions it implies, extended by the labels added
 * since, instead of rebuilt from every label. Why: the studio needs both on every open and every
 * progress refresh, labels arrive all the time while reviewers work, and rebuilding from all of a
 * queue's labels made each of those requests cost more the longer the queue was worked on.
 *
 * `extendLabelState` is persistent (copy-on-write): the state handed in is never modified, so a
 * request still working with an older state sees one consistent history. Copying the two maps is
 * a native copy of one entry per thread and per item; only the touched threads are rebuilt.
 * The result equals `buildHistory` + `completionsFromLabels(currentLabels(…))` over all labels
 * (tests/unit/review/label-state.test.ts checks that on random label streams), threads aside that
 * appear in the order they were first added rather than sorted.
 */
export interface LabelState {
  readonly history: LabelHistory;
  /** Item id → reviewers with a current (not retracted) completing label on it. */
  readonly completions: ReadonlyMap<string, ReadonlySet<string>>;
  /** `item \u0000 reviewer` → how many live threads complete that item for that reviewer (two threads may). */
  readonly live: ReadonlyMap<string, number>;
  /** Label versions in the history. */
  readonly versions: number;
}

export function emptyLabelState(): LabelState {
  return { history: new Map(), completions: new Map(), live: new Map(), versions: 0 };
}

/**
 * The state with `added` appended. Throws the LabelHistoryError `buildHistory` would throw for
 * the union (a duplicate version, a missing previous version, a thread that changes its kind,
 * reviewer or item), and then `state` is left as it was.
 */
export function extendLabelState(state: LabelState, added: Iterable<ReviewLabel>): LabelState {
  const byThread = new Map<string, ReviewLabel[]>();
  let count = 0;
  for (const label of added) {
    const list = byThread.get(label.labelId);
    if (list) list.push(label);
    else byThread.set(label.labelId, [label]);
    count++;
  }
  if (count === 0) return state;
  const history = new Map(state.history);
  const live = new Map(state.live);
  const completions = new Map(state.completions);
  const copied = new Set<string>();
  const reviewersOf = (item: string): Set<string> => {
    const current = completions.get(item);
    if (current && copied.has(item)) return current as Set<string>;
    const copy = new Set(current);
    completions.set(item, copy);
    copied.add(item);
    return copy;
  };
  const shift = (label: ReviewLabel | undefined, by: 1 | -1) => {
    const item = label && !label.retracted ? itemIdForLabel(label) : undefined;
    if (!item) return;
    const key = `${item}\u0000${label!.reviewer}`;
    const n = (live.get(key) ?? 0) + by;
    if (n > 0) live.set(key, n);
    else live.delete(key);
    if (by === 1 && n === 1) reviewersOf(item).add(label!.reviewer);
    if (by === -1 && n === 0) {
      const reviewers = reviewersOf(item);
      reviewers.delete(label!.reviewer);
      if (reviewers.size === 0) completions.delete(item);
    }
  };
  for (const [labelId, labels] of byThread) {
    const before = state.history.get(labelId) ?? [];
    // The thread rebuilt with buildHistory's own ordering and checks (a thread is a handful of versions).
    const thread = buildHistory([...before, ...labels]).get(labelId)!;
    shift(before.at(-1), -1);
    shift(thread.at(-1), 1);
    history.set(labelId, thread);
  }
  return { history, completions, live, versions: state.versions + count };
}
