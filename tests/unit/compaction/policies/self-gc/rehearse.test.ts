import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "../../../../../lib/compaction/planner/parse-plan";
import { rehearsePlan } from "../../../../../lib/compaction/policies/self-gc/rehearse";
import { body, fixture, type Step } from "../../planner/fixtures";

const steps: Step[] = [
  ["system", "You are an agent."],
  ["user", "Research the vendors."],
  ["call", "WebFetch", { url: "https://a.example.com" }, body("page a", 200)],
  ["call", "Read", { file_path: "notes.md" }, body("notes", 40)],
  ["assistant", "Summarised."],
  ["user", "Now compare prices."],
  ["call", "Bash", { command: "ls" }, "a b"],
  ["assistant", "Here."],
];

function rehearse(actions: string, threshold?: number) {
  const { ctx } = fixture(steps);
  const parsed = parsePlan(`<above_conversation_summary>s</above_conversation_summary>\n<gc_plan>\n${actions}\n</gc_plan>`);
  assert.ok(parsed.plan, JSON.stringify(parsed.errors));
  return rehearsePlan(ctx, parsed.plan, threshold);
}

test("an id the index does not know is dropped with its reason and position", () => {
  const r = rehearse('<prune kind="function" reason="x">read:99</prune>');
  assert.deepEqual(r.dropped, [
    { target: "function:read:99", action: "prune", reason: "unknown object id: the prefix has no such object", position: { line: 3, column: 35 } },
  ]);
  assert.equal(r.status, "empty");
});

test("an edit touching the protected latest turn is dropped, whatever the planner said", () => {
  const r = rehearse('<prune kind="function" reason="x">exec:1</prune>\n<fold kind="conversation" reason="y">user:2</fold>');
  assert.deepEqual(
    r.dropped.map((d) => [d.target, d.reason]),
    [
      ["function:exec:1", "touches the protected latest turn (mandatory last-turn retention)"],
      ["conversation:user:2", "touches the protected latest turn (mandatory last-turn retention)"],
    ],
  );
  assert.equal(r.edits.length, 0);
});

test("mask on a whole turn is refused: mask is a tool-level action", () => {
  const r = rehearse('<mask kind="conversation" reason="x">user:1</mask>');
  assert.match(r.dropped[0]!.reason, /mask applies to tool-level objects/);
});

test("a function object inside a turn folded whole needs no action of its own", () => {
  const r = rehearse('<fold kind="conversation" reason="resolved_turn">user:1</fold>\n<prune kind="function" reason="obsolete">web_fetch:1</prune>');
  assert.deepEqual(
    r.edits.map((e) => `${e.action} ${e.id}`),
    ["fold conversation:user:1"],
  );
  assert.deepEqual(
    r.dropped.map((d) => [d.target, d.reason]),
    [["function:web_fetch:1", "redundant: inside conversation:user:1, which is folded as a whole"]],
  );
});

test("conflicting actions on one target keep the most conservative (fold > mask > prune)", () => {
  const r = rehearse(
    '<prune kind="function" reason="a">web_fetch:1</prune>\n<mask kind="function" reason="b">web_fetch:1</mask>\n<fold kind="function" reason="c">function:web_fetch:1</fold>',
  );
  assert.deepEqual(
    r.edits.map((e) => `${e.action} ${e.id} ${e.reason}`),
    ["fold function:web_fetch:1 c"],
  );
  assert.deepEqual(
    r.dropped.map((d) => d.action),
    ["prune", "mask"],
  );
  assert.deepEqual(
    r.dropped.map((d) => d.reason.replace(/^.*the more conservative /, "")),
    ["mask is kept", "fold is kept"],
  );
});

test("the projection is measured and accepted only at or above the compression threshold", () => {
  const big = rehearse('<fold kind="function" reason="stable_body">web_fetch:1</fold>');
  assert.equal(big.status, "accepted");
  assert.ok(big.pruneRate >= 0.3, `${big.pruneRate}`);
  assert.equal(big.tokensBefore, fixture(steps).ctx.prefixTokens);
  assert.ok(big.tokensAfter < big.tokensBefore);
  assert.equal(big.projection.sidecars.length, 1);
  const small = rehearse('<fold kind="function" reason="stable_body">read:1</fold>');
  assert.equal(small.status, "pending");
  assert.ok(small.pruneRate > 0 && small.pruneRate < 0.3);
  assert.match(small.log.at(-1)!, /plan stays pending: \d+\.\d% is below the 30\.0% compression threshold/);
  assert.equal(rehearse('<fold kind="function" reason="stable_body">read:1</fold>', small.pruneRate).status, "accepted");
});

test("rehearsal never touches the session and reports where the cache would break", () => {
  const { ctx, session } = fixture(steps);
  const before = JSON.stringify(session);
  const parsed = parsePlan('<above_conversation_summary>s</above_conversation_summary><gc_plan><fold kind="function" reason="x">read:1</fold></gc_plan>');
  const r = rehearsePlan(ctx, parsed.plan!);
  assert.equal(JSON.stringify(session), before);
  assert.equal(r.firstChangedMessage, 1, "the fold reminder lands on the user request of its turn");
});
