import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  acquireLease,
  activeLease,
  buildAbItems,
  sampleItems,
  buildDependencyItems,
  buildFailureItems,
  completionsFromLabels,
  isOfferedTo,
  manualClock,
  nextItem,
  previousItem,
  queueProgress,
  releaseLease,
  renewLease,
  type JudgedCut,
  type LeaseTable,
  type QueueState,
} from "../../../lib/review";
import { ab, cutReview } from "./labels";

const T0 = Date.UTC(2026, 10, 23, 10);
const TTL = 60_000;

describe("leases", () => {
  test("two reviewers cannot both hold an item; the lease lapses at exactly expiresAt", () => {
    const clock = manualClock(T0);
    const a = acquireLease(new Map(), "i1", "ann", clock, TTL);
    assert.ok(a.ok);
    const table = (a as { table: LeaseTable }).table;
    clock.set(T0 + TTL - 1);
    assert.deepEqual(acquireLease(table, "i1", "bob", clock, TTL), { ok: false, code: "held", heldBy: "ann", expiresAt: T0 + TTL });
    clock.set(T0 + TTL);
    assert.equal(activeLease(table, "i1", clock), undefined);
    const b = acquireLease(table, "i1", "bob", clock, TTL);
    assert.ok(b.ok && b.lease.reviewer === "bob" && b.lease.acquiredAt === T0 + TTL);
  });

  test("the holder renews before expiry and keeps the original acquisition time; an expired lease cannot be renewed", () => {
    const clock = manualClock(T0);
    const table = (acquireLease(new Map(), "i1", "ann", clock, TTL) as { table: LeaseTable }).table;
    clock.advance(TTL - 1);
    const renewed = renewLease(table, "i1", "ann", clock, TTL);
    assert.ok(renewed.ok && renewed.lease.expiresAt === T0 + 2 * TTL - 1 && renewed.lease.acquiredAt === T0);
    assert.equal(renewLease(table, "i1", "bob", clock, TTL).ok, false);
    clock.advance(1);
    assert.deepEqual(renewLease(table, "i1", "ann", clock, TTL), { ok: false, code: "not-held", message: "no live lease on i1" });
  });

  test("only the holder releases a live lease; anyone may clear an expired one", () => {
    const clock = manualClock(T0);
    const table = (acquireLease(new Map(), "i1", "ann", clock, TTL) as { table: LeaseTable }).table;
    assert.equal(releaseLease(table, "i1", "bob", clock).ok, false);
    const released = releaseLease(table, "i1", "ann", clock);
    assert.ok(released.ok && "table" in released && released.table.size === 0);
    clock.advance(TTL);
    assert.ok(releaseLease(table, "i1", "bob", clock).ok);
    assert.throws(() => acquireLease(table, "i1", "ann", clock, 0), RangeError);
  });
});

const rows: JudgedCut[] = [
  { sessionId: "s", cut: 20, policy: "self-gc", judge: "dependency", noImpact: true },
  { sessionId: "s", cut: 20, policy: "oldest-turn", judge: "dependency", noImpact: true },
  { sessionId: "s", cut: 20, policy: "self-gc", judge: "llm:m", noImpact: true },
  { sessionId: "s", cut: 20, policy: "oldest-turn", judge: "llm:m", noImpact: false },
  { sessionId: "s", cut: 10, policy: "self-gc", judge: "dependency", noImpact: true },
  { sessionId: "s", cut: 10, policy: "oldest-turn", judge: "dependency", noImpact: false },
  { sessionId: "r", cut: 5, policy: "self-gc", judge: "dependency", noImpact: false },
  { sessionId: "r", cut: 5, policy: "oldest-turn", judge: "dependency", noImpact: false },
];

describe("building queue items", () => {
  test("one dependency item per cut, in session then cut order", () => {
    assert.deepEqual(
      buildDependencyItems(rows).map((i) => i.id),
      ["dependency:|r@5", "dependency:|s@10", "dependency:|s@20"],
    );
  });

  test("failure items: impacted cut × policy, with the judges that found the impact", () => {
    assert.deepEqual(
      buildFailureItems(rows).map((i) => [i.id, i.judges]),
      [
        ["failure_category:|r@5:oldest-turn", ["dependency"]],
        ["failure_category:|r@5:self-gc", ["dependency"]],
        ["failure_category:|s@10:oldest-turn", ["dependency"]],
        ["failure_category:|s@20:oldest-turn", ["llm:m"]],
      ],
    );
  });

  test("A/B items: policy disagreement and judge disagreement; concordant cuts give none", () => {
    const items = buildAbItems(rows, { seed: 7 });
    assert.deepEqual(
      items.map((i) => [i.id, i.reasons]),
      [
        ["ab:|s@10:oldest-turn|self-gc", [{ type: "policies-disagree", judge: "dependency" }]],
        [
          "ab:|s@20:oldest-turn|self-gc",
          [
            { type: "policies-disagree", judge: "llm:m" },
            { type: "judges-disagree", judges: ["dependency", "llm:m"] },
          ],
        ],
      ],
    );
    assert.deepEqual(buildAbItems(rows, { seed: 7, pairs: [["self-gc", "hybrid"]] }), []);
  });

  test("A/B items of one pair on all cuts: concordant cuts too (no reasons), cuts where one policy was not judged never", () => {
    const pair = [["self-gc", "oldest-turn"]] as const;
    assert.deepEqual(
      buildAbItems(rows, { seed: 7, pairs: pair }).map((i) => i.id),
      ["ab:|s@10:oldest-turn|self-gc", "ab:|s@20:oldest-turn|self-gc"],
      "disagreements only by default",
    );
    const all = buildAbItems([...rows, { sessionId: "t", cut: 1, policy: "self-gc", judge: "dependency", noImpact: true }], {
      seed: 7,
      pairs: pair,
      cuts: "all",
    });
    assert.deepEqual(
      all.map((i) => [i.id, i.reasons.length]),
      [
        ["ab:|r@5:oldest-turn|self-gc", 0],
        ["ab:|s@10:oldest-turn|self-gc", 1],
        ["ab:|s@20:oldest-turn|self-gc", 2],
      ],
    );
  });

  test("a sample is seeded, keeps the walk order, and takes every item when asked for as many or more", () => {
    const items = Array.from({ length: 863 }, (_, i) => `item-${i}`);
    const sample = sampleItems(items, 40, 12345);
    assert.equal(sample.length, 40);
    assert.equal(new Set(sample).size, 40);
    assert.deepEqual(
      sample,
      [...sample].sort((a, b) => items.indexOf(a) - items.indexOf(b)),
      "in walk order",
    );
    assert.deepEqual(sampleItems(items, 40, 12345), sample, "the same seed gives the same sample");
    assert.notDeepEqual(sampleItems(items, 40, 12346), sample, "another seed, another sample");
    const firstHalf = sample.filter((s) => items.indexOf(s) < 432).length;
    assert.ok(firstHalf > 8 && firstHalf < 32, `spread over the queue, not its head: ${firstHalf}/40 in the first half`);
    assert.deepEqual(sampleItems(items.slice(0, 3), 5, 1), items.slice(0, 3));
    assert.throws(() => sampleItems(items, 0, 1), /at least 1/);
  });

  test("sides are randomised by the seed, reproducibly", () => {
    const many: JudgedCut[] = Array.from({ length: 40 }, (_, cut) => [
      { sessionId: "s", cut, policy: "x", judge: "dependency", noImpact: true },
      { sessionId: "s", cut, policy: "y", judge: "dependency", noImpact: false },
    ]).flat();
    const swaps = (seed: number) => buildAbItems(many, { seed }).map((i) => i.sides.A);
    assert.deepEqual(swaps(1), swaps(1));
    assert.notDeepEqual(swaps(1), swaps(2));
    const shownFirst = swaps(1).filter((a) => a === "x").length;
    assert.ok(shownFirst > 5 && shownFirst < 35, `x shown as A ${shownFirst}/40 times`);
  });
});

describe("overlap, progress and navigation", () => {
  const items = buildDependencyItems(rows);
  const [r5, s10, s20] = items.map((i) => i.id) as [string, string, string];
  const clock = manualClock(T0);
  const state = (labels: ReturnType<typeof cutReview>[], leases: LeaseTable = new Map(), overlap = 2): QueueState => ({
    items,
    completions: completionsFromLabels(labels),
    leases,
    overlap: { dependency: overlap, failure_category: 1, ab: 1, view_verdict: 1 },
    clock,
  });
  const review = (id: string, reviewer: string, sessionId: string, cut: number) => cutReview(id, reviewer, { ref: { sessionId, cut } });

  test("an item is done when `overlap` distinct reviewers completed it", () => {
    const labels = [review("a1", "ann", "r", 5), review("b1", "bob", "r", 5), review("a2", "ann", "s", 10)];
    assert.deepEqual(queueProgress(items, completionsFromLabels(labels), { dependency: 2, failure_category: 1, ab: 1, view_verdict: 1 }), [
      { queue: "dependency", items: 3, done: 1, labels: 3, byReviewer: { ann: 2, bob: 1 } },
    ]);
    assert.equal(queueProgress(items, completionsFromLabels(labels), { dependency: 1, failure_category: 1, ab: 1, view_verdict: 1 })[0]!.done, 2);
    assert.throws(() => queueProgress(items, new Map(), { dependency: 0, failure_category: 1, ab: 1, view_verdict: 1 }), RangeError);
  });

  test("next skips what the reviewer completed, done items and items leased to others", () => {
    const labels = [review("a1", "ann", "r", 5)];
    const leased = (acquireLease(new Map(), s10, "bob", clock, TTL) as { table: LeaseTable }).table;
    assert.equal(nextItem(state(labels), "ann")?.id, s10);
    assert.equal(nextItem(state(labels, leased), "ann")?.id, s20);
    assert.equal(nextItem(state(labels, leased), "cid")?.id, r5);
    assert.equal(nextItem(state([...labels, review("c1", "cid", "r", 5)], leased), "dan")?.id, s20);
  });

  test("an assigned item is offered only to its assignees, also when someone else still holds its lease", () => {
    const assigned = {
      ...state([]),
      assignments: new Map([
        [r5, new Set(["ann"])],
        [s20, new Set<string>()],
      ]),
    };
    assert.equal(isOfferedTo(assigned, r5, "bob"), false);
    assert.equal(isOfferedTo(assigned, r5, "ann"), true);
    assert.equal(isOfferedTo(assigned, s20, "bob"), true, "an empty assignment is no assignment");
    assert.equal(nextItem(assigned, "bob")?.id, s10);
    assert.equal(nextItem(assigned, "ann")?.id, r5);
    const bobHolds = (acquireLease(new Map(), r5, "bob", clock, TTL) as { table: LeaseTable }).table;
    assert.equal(nextItem({ ...assigned, leases: bobHolds }, "bob")?.id, s10, "a lease taken before the assignment is not resumed");
    assert.equal(previousItem(assigned, "bob", s10), undefined);
  });

  test("next resumes the item the reviewer holds, and wraps round after the current one", () => {
    const held = (acquireLease(new Map(), s20, "ann", clock, TTL) as { table: LeaseTable }).table;
    assert.equal(nextItem(state([], held), "ann")?.id, s20);
    assert.equal(nextItem(state([]), "ann", s20)?.id, r5);
    assert.equal(nextItem(state([review("a1", "ann", "r", 5), review("a2", "ann", "s", 10), review("a3", "ann", "s", 20)]), "ann"), undefined);
  });

  test("previous steps back to items the reviewer completed (to revise or undo)", () => {
    const labels = [review("a1", "ann", "r", 5), review("b1", "bob", "r", 5)];
    assert.equal(previousItem(state(labels), "ann", s10)?.id, r5);
    assert.equal(previousItem(state(labels), "cid", s10), undefined);
    assert.equal(previousItem(state(labels), "ann", r5), undefined);
  });

  test("A/B labels complete the item of their unordered pair; retracted labels complete nothing", () => {
    const done = completionsFromLabels([ab("x", "ann", { sides: { A: "oldest-turn", B: "self-gc", swapped: true } }), ab("y", "bob", { retracted: true })]);
    assert.deepEqual([...done], [["ab:|s@10:oldest-turn|self-gc", new Set(["ann"])]]);
  });
});
