import assert from "node:assert/strict";
import { test } from "node:test";
import { toolPrunePolicy } from "../../../../../lib/compaction/policies/pruning/tool-prune";
import { analyze, assertValidPairs, plainParts, prose, run, session, step, text, tokenizer, viewByOrigin } from "./fixtures";

const a = analyze(
  session([
    ["system", [text("sys")]],
    ["user", [text("Investigate the failure")]],
    ...step("c1", "Bash", prose(2_000, "a")),
    ...step("c2", "Bash", prose(2_000, "b")),
    ...step("c3", "Read", prose(2_000, "c")),
    ["assistant", [text("Found it.")]],
    ["user", [text("Now fix it")]],
    ...step("c4", "Edit", prose(400, "d")),
    ["assistant", [text("Fixed.")]],
  ]),
);
const prefix = a.index.prefixTokens.at(-1)!;

test("prunes tool outputs oldest-first and stops at the target", async () => {
  // About one and a half outputs over the target: two prunes needed, not three.
  const window = Math.ceil((prefix - 750) / 0.3);
  const r = await run(toolPrunePolicy, a, { window });
  const own = r.actions.filter((x) => x.rule === "tool-prune/greedy-oldest").map((x) => x.target);
  assert.deepEqual(own, ["function:exec:1", "function:exec:2"]);
  assert.ok(r.tokensAfter <= 0.3 * window);
});

test("the pruned outputs' calls go too (lineage repair), and the latest turn is untouched", async () => {
  const r = await run(toolPrunePolicy, a, { window: 100 });
  assert.deepEqual(
    r.actions.filter((x) => x.rule === "tool-prune/greedy-oldest").map((x) => x.target),
    ["function:exec:1", "function:exec:2", "function:read:1"],
  );
  assert.equal(r.actions.filter((x) => x.rule === "harness/lineage-repair").length, 3);
  const view = viewByOrigin(r);
  for (const m of [9, 10, 11, 12]) assert.deepEqual(plainParts(view.get(m)!), a.session.messages[m]!.parts);
  assertValidPairs(r);
});

test("does nothing when the prefix already fits the target", async () => {
  const r = await run(toolPrunePolicy, a, { window: prefix * 10 });
  assert.deepEqual(r.actions, []);
  assert.equal(r.tokensAfter, r.tokensBefore);
});

test("declares the seed 000 budget contract: trigger at 0.9 of the window, target 0.3", () => {
  assert.deepEqual(
    toolPrunePolicy.params.map((p) => [p.name, p.default]),
    [
      ["targetRatio", 0.3],
      ["triggerRatio", 0.9],
    ],
  );
  const ctx = { session: a.session, index: a.index, cut: a.session.messages.length, tokenizer, prefixTokens: prefix, summaryCap: 2_000 };
  const params = { targetRatio: 0.3, triggerRatio: 0.9 };
  assert.equal(toolPrunePolicy.fires!({ ...ctx, window: Math.floor(prefix / 0.9) }, params), true);
  assert.equal(toolPrunePolicy.fires!({ ...ctx, window: Math.ceil(prefix / 0.8) }, params), false);
});
