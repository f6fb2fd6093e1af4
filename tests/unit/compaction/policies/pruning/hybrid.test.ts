import assert from "node:assert/strict";
import { test } from "node:test";
import { hybridPolicy } from "../../../../../lib/compaction/policies/pruning/hybrid";
import { analyze, assertValidPairs, prose, run, session, step, text } from "./fixtures";

const a = analyze(
  session([
    ["system", [text("sys")]],
    ["user", [text("Turn one: list the repo")]],
    ...step("c1", "Bash", prose(3_000, "a")),
    ["assistant", [text("Listed.")]],
    ["user", [text("Turn two: read the config")]],
    ...step("c2", "Read", prose(3_000, "b")),
    ["assistant", [text("Read.")]],
    ["user", [text("Turn three: run the tests")]],
    ...step("c3", "Bash", prose(3_000, "c")),
    ["assistant", [text("Tests pass.")]],
    ["user", [text("Turn four: summarise")]],
    ["assistant", [text("All good.")]],
  ]),
);
const prefix = a.index.prefixTokens.at(-1)!;
const own = (rule: string) => (x: { rule: string }) => x.rule === rule;

test("folds the oldest turns, then prunes tool outputs in the turns it keeps unfolded", async () => {
  const r = await run(hybridPolicy, a, { window: 100 });
  assert.deepEqual(
    r.actions.filter(own("hybrid/fold-oldest-turn")).map((x) => x.target),
    ["conversation:user:1", "conversation:user:2"],
  );
  assert.deepEqual(
    r.actions.filter(own("hybrid/prune-tool-output")).map((x) => x.target),
    ["function:exec:2"],
    "turn three's output (exec:2) is pruned, not folded",
  );
  assert.equal(r.sidecars.length, 2);
  assertValidPairs(r);
});

test("stops after folding when that already meets the target", async () => {
  const turn1 = a.index.byId.get("conversation:user:1")!.tokens;
  const r = await run(hybridPolicy, a, { window: Math.ceil((prefix - turn1 / 2) / 0.3) });
  assert.deepEqual(
    r.actions.map((x) => [x.target, x.rule]),
    [["conversation:user:1", "hybrid/fold-oldest-turn"]],
  );
});

test("keepRecentTurns widens the unfolded tail", async () => {
  const r = await run(hybridPolicy, a, { window: 100, params: { keepRecentTurns: 3 } });
  assert.deepEqual(
    r.actions.filter(own("hybrid/fold-oldest-turn")).map((x) => x.target),
    ["conversation:user:1"],
  );
  assert.deepEqual(
    r.actions.filter(own("hybrid/prune-tool-output")).map((x) => x.target),
    ["function:read:1", "function:exec:2"],
  );
});
