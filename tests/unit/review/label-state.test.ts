import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  buildHistory,
  completionsFromLabels,
  currentLabels,
  LabelHistoryError,
  LabelState,
  manualClock,
  retractLabel,
  reviseLabel,
  type LabelHistory,
  type ReviewLabel,
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
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
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
      const make = pick([
        () => cutReview(id, reviewer, { ref }),
        () => failure(id, reviewer, { ref, policy: pick(["tool-prune", "self-gc"]) }),
        () => ab(id, reviewer, { ref }),
        () => confirm(id, reviewer, "job-7", { ref }),
      ]);
      label = { ...make(), createdAt: new Date(clock.now()).toISOString() };
    }
    latest.set(label.labelId, label);
    out.push(label);
  }
  return out;
}

const sortedHistory = (h: LabelHistory) => [...h].sort(([a], [b]) => (a < b ? -1 : 1));
const sortedCompletions = (c: ReadonlyMap<string, ReadonlySet<string>>) =>
  [...c].map(([k, v]) => [k, [...v].sort()] as const).sort(([a], [b]) => (a < b ? -1 : 1));

function assertSameAsRebuilt(state: LabelState, all: ReviewLabel[]): void {
  const rebuilt = buildHistory(all);
  assert.deepEqual(sortedHistory(state.history), sortedHistory(rebuilt));
  assert.deepEqual(sortedCompletions(state.completions), sortedCompletions(completionsFromLabels(currentLabels(rebuilt))));
  assert.equal(state.versions, all.length);
}

describe("LabelState", () => {
  test("adding batch by batch equals rebuilding from every label (200 random streams)", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const stream = randomStream(seed, 120);
      const random = prng(seed * 7919);
      const state = new LabelState();
      let at = 0;
      while (at < stream.length) {
        const size = Math.floor(random() * 9);
        // Labels arrive in any order within a batch (rows are read newest first).
        state.add(stream.slice(at, at + size).reverse());
        at += size;
        assertSameAsRebuilt(state, stream.slice(0, at));
      }
    }
  });

  test("a retraction removes the completion, a second live thread of the same reviewer keeps it", () => {
    const clock = manualClock(Date.UTC(2026, 10, 23, 12));
    const first = cutReview("a1", "ana@x");
    const second = cutReview("a2", "ana@x");
    const state = new LabelState();
    state.add([first, second]);
    const [item] = [...state.completions.keys()];
    assert.deepEqual([...state.completions.get(item!)!], ["ana@x"]);
    state.add([retractLabel(first, clock)]);
    assert.deepEqual([...state.completions.get(item!)!], ["ana@x"], "the second thread still completes the item");
    state.add([retractLabel(second, clock)]);
    assert.equal(state.completions.has(item!), false);
  });

  test("a refused batch changes nothing, also when its first labels were fine", () => {
    const clock = manualClock(Date.UTC(2026, 10, 23, 12));
    const first = cutReview("a1", "ana@x");
    const state = new LabelState();
    state.add([first]);
    const snapshot = () => ({ history: sortedHistory(state.history), completions: sortedCompletions(state.completions), versions: state.versions });
    const before = snapshot();
    assert.throws(
      () => state.add([cutReview("b1", "bo@x"), retractLabel(first, clock), first]),
      (e: unknown) => e instanceof LabelHistoryError && e.code === "duplicate-version",
    );
    assert.throws(
      () => state.add([cutReview("b1", "bo@x"), { ...reviseLabel(first, {}, clock), version: 3, supersedes: 2 }]),
      (e: unknown) => e instanceof LabelHistoryError && e.code === "missing-previous",
    );
    assert.deepEqual(snapshot(), before);
  });

  test("an empty batch changes nothing", () => {
    const state = new LabelState();
    state.add([cutReview("a1", "ana@x")]);
    const history = sortedHistory(state.history);
    state.add([]);
    assert.deepEqual(sortedHistory(state.history), history);
    assert.equal(state.versions, 1);
  });
});
