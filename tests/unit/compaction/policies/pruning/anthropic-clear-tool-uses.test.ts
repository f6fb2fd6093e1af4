import assert from "node:assert/strict";
import { test } from "node:test";
import { anthropicClearToolUsesPolicy, triggerTokens } from "../../../../../lib/compaction/policies/pruning/anthropic-clear-tool-uses";
import { resolveParams } from "../../../../../lib/compaction/policies/params";
import { analyze, assertValidPairs, plainParts, prose, run, session, step, text, viewByOrigin } from "./fixtures";

const a = analyze(
  session([
    ["system", [text("sys")]],
    ["user", [text("Audit the service")]],
    ...step("c1", "Bash", prose(1_200, "a")),
    ...step("c2", "Read", prose(1_200, "b")),
    ...step("c3", "Grep", prose(1_200, "c")),
    ["assistant", [text("Half way.")]],
    ["user", [text("Continue")]],
    ...step("c4", "Bash", prose(1_200, "d")),
    ...step("c5", "Read", prose(1_200, "e")),
    ...step("c6", "Grep", prose(1_200, "f")),
    ["assistant", [text("Audited.")]],
    ["user", [text("Thanks")]],
    ["assistant", [text("Welcome.")]],
  ]),
);
const prefix = a.index.prefixTokens.at(-1)!;
const resultAt = (r: Awaited<ReturnType<typeof run>>, m: number) => {
  const part = viewByOrigin(r).get(m)!.parts[0]!;
  return part.type === "tool_result" ? part.content : "";
};

test("keeps exactly the 3 most recent tool uses and clears older results to the placeholder", async () => {
  const r = await run(anthropicClearToolUsesPolicy, a, { window: prefix });
  assert.deepEqual(
    r.actions.map((x) => [x.target, x.action, x.rule]),
    [
      ["function:exec:1", "prune", "anthropic-clear-tool-uses/clear-oldest"],
      ["function:read:1", "prune", "anthropic-clear-tool-uses/clear-oldest"],
      ["function:grep:1", "prune", "anthropic-clear-tool-uses/clear-oldest"],
    ],
  );
  for (const m of [3, 5, 7]) assert.equal(resultAt(r, m), "[cleared]");
  for (const m of [11, 13, 15]) assert.deepEqual(plainParts(viewByOrigin(r).get(m)!), a.session.messages[m]!.parts, `recent use at ${m} kept`);
  for (const m of [2, 4, 6]) assert.deepEqual(plainParts(viewByOrigin(r).get(m)!), a.session.messages[m]!.parts, `call at ${m} kept (clear_tool_inputs off)`);
  assertValidPairs(r);
});

test("the trigger is 100,000 input tokens scaled to the window (half of it), and decide respects it", async () => {
  const params = resolveParams(anthropicClearToolUsesPolicy, {});
  assert.equal(triggerTokens(200_000, params), 100_000);
  assert.equal(triggerTokens(50_000, params), 25_000);
  assert.equal(triggerTokens(50_000, resolveParams(anthropicClearToolUsesPolicy, { scaleToWindow: false })), 100_000);
  const r = await run(anthropicClearToolUsesPolicy, a, { window: prefix * 3 });
  assert.deepEqual(r.actions, []);
  assert.match(r.log[0]!, /trigger not reached/);
  const unscaled = await run(anthropicClearToolUsesPolicy, a, { window: prefix, params: { scaleToWindow: false } });
  assert.deepEqual(unscaled.actions, [], "100K unscaled never fires on a small prefix");
});

test("exclude_tools are never cleared but still count among the kept uses", async () => {
  const r = await run(anthropicClearToolUsesPolicy, a, { window: prefix, params: { excludeTools: "Read" } });
  assert.deepEqual(
    r.actions.map((x) => x.target),
    ["function:exec:1", "function:grep:1"],
  );
});

test("clear_at_least: all or nothing", async () => {
  const none = await run(anthropicClearToolUsesPolicy, a, { window: prefix, params: { clearAtLeast: 10_000 } });
  assert.deepEqual(none.actions, []);
  assert.ok(none.log.some((l) => l.includes("clear_at_least not met")));
  const some = await run(anthropicClearToolUsesPolicy, a, { window: prefix, params: { clearAtLeast: 500 } });
  assert.equal(some.actions.length, 3);
});

test("clear_tool_inputs also replaces the cleared calls' inputs", async () => {
  const r = await run(anthropicClearToolUsesPolicy, a, { window: prefix, params: { clearToolInputs: true, keep: 5 } });
  assert.deepEqual(
    r.actions.map((x) => x.target),
    ["function:exec:1"],
  );
  const callPart = viewByOrigin(r).get(2)!.parts[0]!;
  assert.equal(callPart.type === "tool_call" && callPart.arguments, "[cleared]");
  assert.equal(callPart.type === "tool_call" && callPart.id, "c1");
  assertValidPairs(r);
});
