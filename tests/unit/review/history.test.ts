import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  allVersions,
  appendLabel,
  buildHistory,
  currentLabels,
  LabelHistoryError,
  manualClock,
  retractLabel,
  reviseLabel,
  ReviewLabelSchema,
} from "../../../lib/review";
import { ab, confirm, failure, ref } from "./labels";

const issuesOf = (value: unknown) => {
  const parsed = ReviewLabelSchema.safeParse(value);
  assert.equal(parsed.success, false);
  return parsed.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("label schemas", () => {
  test("valid labels of every kind parse unchanged", () => {
    for (const label of [confirm("l1", "ann", "JOB-22222"), failure("l2", "ann"), ab("l3", "ann")]) assert.deepEqual(ReviewLabelSchema.parse(label), label);
  });

  test("an added dependency needs both spans, on the right side of the cut", () => {
    const base = { ...confirm("l1", "ann", "x"), decision: "add" as const, dependencyId: undefined };
    assert.deepEqual(issuesOf({ ...base }), ["future: required when decision is add", "prefix: required when decision is add"]);
    const span = (message: number, text: string) => ({ message, part: 0, start: 0, end: text.length, text });
    assert.deepEqual(issuesOf({ ...base, future: span(3, "JOB"), prefix: span(12, "JOB") }), [
      `future.message: must be ≥ the cut (${ref.cut})`,
      `prefix.message: must be < the cut (${ref.cut})`,
    ]);
  });

  test("span offsets must select exactly the span's text length", () => {
    const label = {
      ...confirm("l1", "ann", "x"),
      decision: "add",
      dependencyId: undefined,
      future: { message: 12, part: 0, start: 0, end: 4, text: "JOB" },
      prefix: { message: 2, part: 0, start: 5, end: 8, text: "JOB" },
    };
    assert.deepEqual(issuesOf(label), ["future.end: end − start must equal the length of text"]);
  });

  test("confirm needs a type; version 1 supersedes nothing and version n supersedes n − 1", () => {
    assert.deepEqual(issuesOf({ ...confirm("l1", "ann", "x"), type: undefined }), ["type: required when decision is confirm"]);
    assert.deepEqual(issuesOf({ ...confirm("l1", "ann", "x"), supersedes: 1 }), ["supersedes: must be null on version 1"]);
    assert.deepEqual(issuesOf({ ...confirm("l1", "ann", "x"), version: 3, supersedes: 1 }), ["supersedes: must be 2 (version − 1)"]);
  });

  test("recovery routing is a failure category but not a dependency type", () => {
    assert.equal(ReviewLabelSchema.safeParse(failure("l", "ann", { category: "recovery_routing" })).success, true);
    assert.equal(ReviewLabelSchema.safeParse({ ...confirm("l", "ann", "x"), type: "recovery_routing" }).success, false);
  });
});

describe("label history", () => {
  const clock = manualClock(Date.UTC(2026, 10, 23, 11));

  test("revisions and undo append versions; every version stays in the history", () => {
    const v1 = failure("t", "ann");
    const v2 = reviseLabel(v1, { category: "locator_handle" }, clock);
    clock.advance(60_000);
    const v3 = retractLabel(v2, clock);
    const history = [v1, v2, v3].reduce(appendLabel, new Map());
    assert.deepEqual(
      allVersions(history).map((l) => [l.version, l.supersedes, l.kind === "failure_category" && l.category, l.retracted ?? false]),
      [
        [1, null, "live_state", false],
        [2, 1, "locator_handle", false],
        [3, 2, "locator_handle", true],
      ],
    );
    assert.deepEqual(currentLabels(history), []);
    assert.deepEqual(
      currentLabels(appendLabel(history, reviseLabel(v3, { retracted: undefined }, clock))).map((l) => l.version),
      [4],
    );
    assert.equal(ReviewLabelSchema.safeParse(v3).success, true);
  });

  test("appending never mutates the input history", () => {
    const h1 = appendLabel(new Map(), failure("t", "ann"));
    appendLabel(h1, reviseLabel(failure("t", "ann"), {}, clock));
    assert.equal(h1.get("t")!.length, 1);
  });

  test("a duplicate version, a gap, another reviewer or another item is refused", () => {
    const v1 = failure("t", "ann");
    const h = appendLabel(new Map(), v1);
    const code = (fn: () => unknown, expected: string) => assert.throws(fn, (e: unknown) => e instanceof LabelHistoryError && e.code === expected);
    assert.throws(() => appendLabel(h, v1), /already has version 1/);
    assert.throws(() => appendLabel(h, { ...v1, version: 3, supersedes: 2 }), /version 2, which is not stored/);
    code(() => appendLabel(h, { ...reviseLabel(v1, {}, clock), reviewer: "bob" }), "changed-thread");
    code(() => appendLabel(h, v1), "duplicate-version");
    assert.throws(() => appendLabel(h, reviseLabel(v1, { policy: "hybrid" }, clock)), /changes its kind, reviewer or item/);
    assert.throws(() => appendLabel(h, { ...reviseLabel(v1, {}, clock), createdAt: "2020-01-01T00:00:00.000Z" }), /dated before version 1/);
  });

  test("buildHistory accepts versions in any order", () => {
    const v1 = ab("t", "ann");
    const v2 = reviseLabel(v1, { verdict: "tie" }, clock);
    assert.deepEqual(currentLabels(buildHistory([v2, v1])), [v2]);
  });
});
