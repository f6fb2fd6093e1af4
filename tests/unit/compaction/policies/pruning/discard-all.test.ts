import assert from "node:assert/strict";
import { test } from "node:test";
import { discardAllPolicy } from "../../../../../lib/compaction/policies/pruning/discard-all";
import type { TargetReport } from "../../../../../lib/compaction/policies/shared/target";
import { analyze, assertValidPairs, call, plainParts, prose, result, run, session, step, text, viewByOrigin } from "./fixtures";

/**
 * 0 system, 1 request, 2–7 three tool steps, 8 answer, 9 a request that also carries a late tool
 * result (Anthropic-style user message), 10–11 one step, 12 answer, 13–14 the latest turn.
 */
const s = session([
  ["system", [text("You are a search agent.")]],
  ["user", [text("Find the release date")]],
  ...step("c1", "search", prose(900, "a")),
  ...step("c2", "fetch", prose(900, "b")),
  ["assistant", [text("Checking one more source."), call("c3", "fetch", '{"url":"https://example.org"}')]],
  ["tool", [result("c3", prose(900, "c"))]],
  ["assistant", [text("It was in May."), call("c4", "search", '{"q":"changelog"}')]],
  ["user", [result("c4", prose(600, "d")), text("And the version number?")]],
  ...step("c5", "fetch", prose(900, "e")),
  ["assistant", [text("Version 2.1.")]],
  ["user", [text("Thanks")]],
  ["assistant", [text("You're welcome.")]],
]);
const a = analyze(s);
const prefix = a.index.prefixTokens.at(-1)!;

test("past 80% of the window the reset discards every assistant step and tool result before the latest turn", async () => {
  assert.deepEqual(
    discardAllPolicy.params.map((p) => [p.name, p.default]),
    [["triggerRatio", 0.8]],
  );
  const r = await run(discardAllPolicy, a, { window: Math.floor(prefix / 0.9) });
  const view = viewByOrigin(r);
  assert.deepEqual([...view.keys()], [0, 1, 9, 13, 14], "system, the requests and the latest turn stay");
  assert.deepEqual(plainParts(view.get(9)!), [text("And the version number?")], "a request keeps its words and loses the tool result it carried");
  for (const m of [0, 1, 13, 14]) assert.deepEqual(plainParts(view.get(m)!), s.messages[m]!.parts);
  assert.deepEqual(
    r.actions.map((x) => x.target).sort(),
    [
      "conversation:user:1",
      "conversation:user:2",
      "function:search:1",
      "function:search:2",
      "function:web_fetch:1",
      "function:web_fetch:2",
      "function:web_fetch:3",
    ].sort(),
  );
  assert.ok(r.actions.every((x) => x.action === "prune" && x.rule === "discard-all/tool-call-history"));
  assertValidPairs(r);
});

test("below the trigger nothing is discarded; the trigger is the policy's own", async () => {
  const r = await run(discardAllPolicy, a, { window: Math.ceil(prefix / 0.7) });
  assert.deepEqual(r.actions, []);
  assert.equal(r.tokensAfter, prefix);
  assert.match(r.log[0]!, /trigger not reached/);
  const ctx = { ...a, cut: s.messages.length, window: Math.ceil(prefix / 0.7), tokenizer: undefined as never, prefixTokens: prefix, summaryCap: 0 };
  assert.equal(discardAllPolicy.fires!(ctx, { triggerRatio: 0.8 }), false);
  assert.equal(discardAllPolicy.fires!({ ...ctx, window: Math.floor(prefix / 0.9) }, { triggerRatio: 0.8 }), true);
});

test("under a harness target it can only reset: the trigger steps aside and the same reset lands below the target", async () => {
  const own = await run(discardAllPolicy, a, { window: Math.floor(prefix / 0.9) });
  const target = Math.round(prefix * 0.8);
  const r = await run(discardAllPolicy, a, { window: Math.ceil(prefix / 0.5), targetTokens: target });
  assert.deepEqual(r.view, own.view, "the same reset whatever the target");
  const report = r.details!.target as TargetReport;
  assert.ok(report.reached && r.tokensAfter < target);
  assert.equal(report.knob, "reset (discard-all has no other setting)");
  const tiny = await run(discardAllPolicy, a, { window: Math.floor(prefix / 0.9), targetTokens: 10 });
  const missed = tiny.details!.target as TargetReport;
  assert.equal(missed.reached, false);
  assert.match(missed.why!, /system prompt, every user request and the latest turn/);
  assert.deepEqual(tiny.view, own.view);
});
