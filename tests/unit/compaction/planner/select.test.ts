import assert from "node:assert/strict";
import { test } from "node:test";
import { selectActions, type Candidate } from "../../../../lib/compaction/planner/rule-based/select";

const fold = (id: string, saves: number, tier: number, at: number, parent?: string): Candidate => ({
  decision: { action: "fold", kind: id.startsWith("conversation:") ? "conversation" : "function", id, reason: "r: x" },
  saves,
  tier,
  at,
  ...(parent ? { parent } : {}),
});
const prune = (id: string, saves: number, at: number, parent?: string): Candidate => ({
  ...fold(id, saves, 0, at, parent),
  decision: { action: "prune", kind: "function", id, reason: "r: x" },
});
/** Selected ids, sorted (the plan lists them in prefix order, not in the order they were chosen). */
const ids = (c: Candidate[], target: number) =>
  selectActions(c, target, 100)
    .decisions.map((d) => d.id)
    .sort();

test("obsolete trace is always taken, even past the target", () => {
  assert.deepEqual(ids([prune("function:exec:1", 500, 1), prune("function:exec:2", 500, 2)], 100), ["function:exec:1", "function:exec:2"]);
});

test("folds stop once the target is reached, stable bodies before dependency-bearing ones, oldest first", () => {
  const c = [fold("function:read:9", 1000, 2, 1), fold("function:read:2", 1000, 1, 5), fold("function:read:1", 1000, 1, 3)];
  assert.deepEqual(ids(c, 1500), ["function:read:1", "function:read:2"]);
  assert.deepEqual(ids(c, 2500), ["function:read:1", "function:read:2", "function:read:9"]);
  assert.deepEqual(ids(c, 500), ["function:read:1"]);
});

test("within a tier the coldest object goes first: the one the prefix last referred to longest ago, whatever its age", () => {
  const used = (c: Candidate, lastUse: number): Candidate => ({ ...c, lastUse });
  // read:1 is the oldest but was referred to at message 40; read:2 was never referred to after message 5.
  const c = [used(fold("function:read:1", 1000, 1, 1), 40), used(fold("function:read:2", 1000, 1, 5), 5), used(fold("function:read:3", 1000, 2, 2), 2)];
  assert.deepEqual(ids(c, 500), ["function:read:2"]);
  assert.deepEqual(ids(c, 1500), ["function:read:1", "function:read:2"]);
  // The tier still comes first: a cold dependency-bearing body waits for every stable body.
  assert.deepEqual(ids(c, 2500), ["function:read:1", "function:read:2", "function:read:3"]);
});

test("a fold that saves less than the minimum is skipped", () => {
  assert.deepEqual(ids([fold("function:read:1", 50, 1, 1), fold("function:read:2", 400, 1, 2)], 10_000), ["function:read:2"]);
});

test("a whole-turn fold replaces the actions inside its turn and is charged only what they did not save", () => {
  const c = [
    prune("function:exec:1", 300, 2, "conversation:user:1"),
    fold("function:read:1", 400, 1, 3, "conversation:user:1"),
    fold("conversation:user:1", 2000, 1.5, 1),
  ];
  const s = selectActions(c, 10_000, 100);
  assert.deepEqual(
    s.decisions.map((d) => d.id),
    ["conversation:user:1"],
  );
  assert.equal(s.saved, 2000);
});

test("a whole-turn fold that adds less than the minimum over its inner actions is skipped", () => {
  const c = [fold("function:read:1", 1900, 1, 3, "conversation:user:1"), fold("conversation:user:1", 1950, 1.5, 1)];
  assert.deepEqual(ids(c, 10_000), ["function:read:1"]);
});
