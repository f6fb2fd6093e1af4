import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  buildHistory, completionsFromLabels, currentLabels, emptyLabelState, extendLabelState, LabelHistoryError, manualClock, retractLabel, reviseLabel,
  type LabelHistory, type LabelState, type ReviewLabel,
} from "../../../lib/review";
import { ab, cutReview, failure, confirm } from "./labels";

/** A small deterministic PRNG (mulberry32), so a failing stream can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random stream of new threads, revisions, retractions and un-retractions over a few items and reviewers. */
function randomStream(seed: number, n: number): ReviewLabel[] {
  const random = prng(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const clock = manualClock(Date.UTC(2026, 10, 23, 12));
  const reviewers = ["ana@x", "bo@x", "cy@x"];
  const latest = new Map<string, ReviewLabel>();
  const out: ReviewLabel[] = [];
  for (let i = 0; i < n; i++) {
    clock.advance(1_000);
    const open = [...latest.values()];
    let label: ReviewLabel;
    if (open.length > 0 && random() < 0.4) {
      const previous = pick(open);
      label = random() < 0.5 ? retractLabel(previous, clock) : reviseLabel(previous, { retracted: false } as never, clock);
    } else {
      const reviewer = pick(reviewers);
      const ref = { sessionId: pick(["s1", "s2"]), cut: pick([10, 20, 30]) };
      const id = `t${i}`;
      const make = pick([() => cutReview(id, reviewer, { ref }), () => failure(id, reviewer, { ref, policy: pick(["tool-prune", "self-gc"]) }), () => ab(id, reviewer, { ref }), () => confirm(id, reviewer, "job-7", { ref })]);
      label = { ...make(), createdAt: new Date(clock.now()).toISOString() };
    }
    latest.set(label.labelId, label);
    out.push(label);
  }
  return out;
}

const sortedHistory = (h: LabelHistory) => [...h].sort(([a], [b]) => (a < b ? -1 : 1));
const sortedCompletions = (c: ReadonlyMap<string, ReadonlySet<string>>) => [...c].map(([k, v]) => [k, [...v].sort()] as const).sort(([a], [b]) => (a < b ? -1 : 1));

function assertSameAsRebuilt(state: LabelState, all: ReviewLabel[]): void {
  const rebuilt = buildHistory(all);
  assert.deepEqual(sortedHistory(state.history), sortedHistory(rebuilt));
  assert.deepEqual(sortedCompletions(state.completions), sortedCompletions(completionsFromLabels(currentLabels(rebuilt))));
  assert.equal(state.versions, all.length);
}

describe("extendLabelState", () => {
  test("extending batch by batch equals rebuilding from every label (200 random streams)", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const stream = randomStream(seed, 120);
      const random = prng(seed * 7919);
      let state = emptyLabelState();
      let at = 0;
      while (at < stream.length) {
        const size = Math.floor(random() * 9);
        // Labels arrive in any order within a batch (rows are read newest first).
        const batch = stream.slice(at, at + size).reverse();
        state = extendLabelState(state, batch);
        at += size;
        assertSameAsRebuilt(state, stream.slice(0, at));
      }
    }
  });

  test("a retraction removes the completion, a second live thread of the same reviewer keeps it", () => {
    const clock = manualClock(Date.UTC(2026, 10, 23, 12));
    const first = cutReview("a1", "ana@x");
    const second = cutReview("a2", "ana@x");
    let state = extendLabelState(emptyLabelState(), [first, second]);
    const [item] = [...state.completions.keys()];
    assert.deepEqual([...state.completions.get(item!)!], ["ana@x"]);
    state = extendLabelState(state, [retractLabel(first, clock)]);
    assert.deepEqual([...state.completions.get(item!)!], ["ana@x"], "the second thread still completes the item");
    state = extendLabelState(state, [retractLabel(second, clock)]);
    assert.equal(state.completions.has(item!), false);
  });

  test("the state handed in is never modified, also when the batch is refused", () => {
    const clock = manualClock(Date.UTC(2026, 10, 23, 12));
    const first = cutReview("a1", "ana@x");
    const before = extendLabelState(emptyLabelState(), [first]);
    const snapshot = { history: sortedHistory(before.history), completions: sortedCompletions(before.completions) };
    const after = extendLabelState(before, [retractLabel(first, clock), cutReview("b1", "bo@x")]);
    assert.notEqual(after, before);
    assert.deepEqual({ history: sortedHistory(before.history), completions: sortedCompletions(before.completions) }, snapshot);
    assert.throws(() => extendLabelState(before, [first]), (e: unknown) => e instanceof LabelHistoryError && e.code === "duplicate-version");
    assert.throws(() => extendLabelState(before, [{ ...reviseLabel(first, {}, clock), version: 3, supersedes: 2 }]), (e: unknown) => e instanceof LabelHistoryError && e.code === "missing-previous");
    assert.deepEqual({ history: sortedHistory(before.history), completions: sortedCompletions(before.completions) }, snapshot);
  });

  test("an empty batch returns the same state", () => {
    const state = extendLabelState(emptyLabelState(), [cutReview("a1", "ana@x")]);
    assert.equal(extendLabelState(state, []), state);
  });
});
