import assert from "node:assert/strict";
import { test } from "node:test";
import { selectActions, type Candidate } from "../../../../lib/compaction/planner/rule-based/select";

const fold = (id: string, saves: number, tier: number, at: number): Candidate => ({
  decision: { action: "fold", kind: "function", id, reason: "r: x" },
  saves,
  tier,
  at,
});
const ids = (c: Candidate[], target: number, reserveBelow?: number) =>
  selectActions(c, target, 100, reserveBelow)
    .decisions.map((d) => d.id)
    .sort();

test("the working-set reserve stays closed when safer folds already reach its threshold", () => {
  const c = [fold("function:read:1", 1000, 1, 1), fold("function:read:9", 1000, 3, 9)];
  assert.deepEqual(ids(c, 4000, 900), ["function:read:1"]);
});

test("the working-set reserve opens when safer folds fall short of its threshold, and is spent largest first only up to that threshold", () => {
  const c = [fold("function:read:1", 500, 1, 1), fold("function:read:9", 1000, 3, 9), fold("function:read:8", 1000, 3, 8), fold("function:read:7", 2000, 3, 7)];
  // 500 < 900: the reserve opens; its largest body alone clears the threshold, so nothing else of it goes,
  // even though the target (4,000) is still far.
  assert.deepEqual(ids(c, 4000, 900), ["function:read:1", "function:read:7"]);
  // Equal sizes: oldest first, and again no further than the threshold.
  const even = [fold("function:read:1", 500, 1, 1), fold("function:read:9", 1000, 3, 9), fold("function:read:8", 1000, 3, 8)];
  assert.deepEqual(ids(even, 4000, 900), ["function:read:1", "function:read:8"]);
  assert.deepEqual(ids(even, 4000, 1600), ["function:read:1", "function:read:8", "function:read:9"]);
});

test("without a reserve threshold the working set is never spent (the default)", () => {
  assert.deepEqual(ids([fold("function:read:9", 1000, 3, 9)], 4000), []);
});
