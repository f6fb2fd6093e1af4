import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  appendLabel,
  buildHistory,
  currentLabels,
  exportJsonl,
  importLabels,
  LabelHistoryError,
  manualClock,
  reviseLabel,
  retractLabel,
  type LabelHistory,
  type ReviewLabel,
} from "../../../lib/review";
import { cutReview, failure } from "./labels";

/** A deterministic shuffle (LCG), so a failure names the same line every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `threads` threads of `versions` versions each (alternating kinds and reviewers), plus one thread of `longVersions`. */
function corpus(threads: number, versions: number, longVersions: number): ReviewLabel[] {
  const clock = manualClock(Date.UTC(2026, 10, 23, 12));
  const labels: ReviewLabel[] = [];
  const thread = (first: ReviewLabel, count: number) => {
    let label = first;
    labels.push(label);
    for (let v = 2; v <= count; v++) {
      clock.advance(1_000);
      label = v === count && v % 3 === 0 ? retractLabel(label, clock) : reviseLabel(label, { comment: `v${v}` }, clock);
      labels.push(label);
    }
  };
  for (let i = 0; i < threads; i++) thread(i % 2 === 0 ? cutReview(`t${i}`, `r${i % 7}`) : failure(`t${i}`, `r${i % 7}`), versions);
  thread(cutReview("long", "ann"), longVersions);
  return labels;
}

/** What importLabels did before it was made linear: appendLabel per label, sorted by thread and version. */
function referenceAppend(existing: LabelHistory, labels: ReviewLabel[], lineOf: Map<ReviewLabel, number>) {
  let history = existing;
  const errors: { line: number; code: string; message: string }[] = [];
  const ordered = [...labels].sort((a, b) => (a.labelId < b.labelId ? -1 : a.labelId > b.labelId ? 1 : a.version - b.version));
  for (const label of ordered) {
    try {
      history = appendLabel(history, label);
    } catch (error) {
      if (!(error instanceof LabelHistoryError)) throw error;
      errors.push({ line: lineOf.get(label)!, code: error.code, message: error.message });
    }
  }
  return { history, errors: errors.sort((a, b) => a.line - b.line) };
}

describe("importing a large label file", () => {
  test("20,000 labels in shuffled order, 1,000 of them already stored: every thread complete and in version order", () => {
    const labels = corpus(4_500, 4, 2_000);
    assert.equal(labels.length, 20_000);
    const stored = labels.filter((l) => l.labelId.startsWith("t") && Number(l.labelId.slice(1)) < 500 && l.version <= 2);
    const existing = buildHistory(stored);
    const existingSnapshot = [...existing].map(([id, thread]) => [id, thread.length]);
    const result = importLabels(exportJsonl(shuffled(labels, 7)), "jsonl", existing);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.errors.slice(0, 3)));
    assert.equal(result.skipped, 1_000);
    assert.equal(result.labels.length, 19_000);
    assert.equal(result.history.size, 4_501);
    for (const [labelId, thread] of result.history) {
      assert.deepEqual(
        thread.map((l) => l.version),
        Array.from({ length: labelId === "long" ? 2_000 : 4 }, (_, i) => i + 1),
        labelId,
      );
    }
    assert.deepEqual(
      result.history.get("t17"),
      labels.filter((l) => l.labelId === "t17"),
    );
    assert.equal(currentLabels(result.history).length, 4_501, "4 and 2,000 are not multiples of 3: nothing retracted");
    assert.deepEqual(
      [...existing].map(([id, thread]) => [id, thread.length]),
      existingSnapshot,
      "the stored history is not modified",
    );
  });

  test("errors in a 20,000-label file name the same lines and messages as appending one label at a time", () => {
    const labels = corpus(4_500, 4, 2_000);
    const lines = shuffled(labels, 11);
    // Faults: a thread that changes reviewer, a missing version, a version dated backwards, a
    // version already stored with other content — spread over the file.
    const changed = lines.findIndex((l) => l.labelId === "t42" && l.version === 3);
    const changedLabel = { ...lines[changed]!, reviewer: "eve" };
    lines[changed] = changedLabel;
    const missing = lines.findIndex((l) => l.labelId === "t43" && l.version === 2);
    lines.splice(missing, 1);
    const backwards = lines.findIndex((l) => l.labelId === "long" && l.version === 1_500);
    lines[backwards] = { ...lines[backwards]!, createdAt: "2020-01-01T00:00:00.000Z" };
    const existing = buildHistory(labels.filter((l) => l.labelId === "t44" && l.version === 1).map((l) => ({ ...l, comment: "stored differently" })));
    const result = importLabels(exportJsonl(lines), "jsonl", existing);
    assert.ok(!result.ok);
    const lineOf = new Map(lines.map((label, i) => [label, i + 1]));
    const fresh = lines.filter((l) => !(l.labelId === "t44" && l.version === 1));
    const reference = referenceAppend(existing, fresh, lineOf);
    const historyErrors = result.errors.filter((e) => e.field !== "version");
    assert.deepEqual(
      historyErrors.map((e) => [e.line, e.message]),
      reference.errors.map((e) => [e.line, e.message]),
    );
    assert.deepEqual(
      result.errors.find((e) => e.field === "version"),
      {
        line: lines.findIndex((l) => l.labelId === "t44" && l.version === 1) + 1,
        field: "version",
        expected: "a version of t44 not already stored",
        message: "label t44 version 1 is already stored with different content; add a new version instead",
      },
    );
    const byMessage = new Map(result.errors.map((e) => [e.message, e]));
    assert.deepEqual(byMessage.get("label t42 version 3 changes its kind, reviewer or item"), {
      line: lines.indexOf(changedLabel) + 1,
      field: "labelId",
      expected: "the same kind, reviewer and item as the earlier versions, dated no earlier",
      message: "label t42 version 3 changes its kind, reviewer or item",
    });
    assert.equal(byMessage.get("label t43 version 3 supersedes version 2, which is not stored (latest: 1)")?.field, "supersedes");
    assert.equal(byMessage.get("label long version 1500 is dated before version 1499")?.line, backwards + 1);
    assert.ok(result.errors.length >= 4);
  });

  test("a small file refused the same way by the linear import and by appendLabel one at a time", () => {
    const labels = corpus(300, 3, 50);
    const lines = shuffled(labels, 3).filter((l) => !(l.version === 2 && l.labelId.endsWith("5")));
    const result = importLabels(exportJsonl(lines), "jsonl");
    assert.ok(!result.ok);
    const reference = referenceAppend(new Map(), lines, new Map(lines.map((label, i) => [label, i + 1])));
    assert.deepEqual(
      result.errors.map((e) => [e.line, e.message]),
      reference.errors.map((e) => [e.line, e.message]),
    );
    assert.equal(result.errors.length, 30);
  });
});
