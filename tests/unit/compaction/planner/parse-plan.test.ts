import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "../../../../lib/compaction/planner/parse-plan";
import { planToXml } from "../../../../lib/compaction/planner/render-plan";

const LISTING_2 = `<above_conversation_summary>
One short sentence describing the
session type, likely future
dependencies,
and a light compression bias.
</above_conversation_summary>
<gc_plan>
  <fold kind="conversation"
  reason="resolved_turn">
    user:5
  </fold>
  <fold kind="function"
  reason="stable_artifact">
    read:12
  </fold>
  <prune kind="function"
  reason="obsolete_trace">
    exec:9
  </prune>
</gc_plan>`;

/** Codes and positions of every problem, for compact assertions. */
function problems(xml: string): string[] {
  return parsePlan(xml).errors.map((e) => `${e.code}@${e.line}:${e.column}`);
}

const wrap = (plan: string) => `<above_conversation_summary>s</above_conversation_summary>\n<gc_plan>\n${plan}\n</gc_plan>`;

test("seed 000 Listing 2 parses into canonical ids, kinds and reasons", () => {
  const { plan, errors } = parsePlan(LISTING_2);
  assert.deepEqual(errors, []);
  assert.equal(plan?.summary, "One short sentence describing the session type, likely future dependencies, and a light compression bias.");
  assert.deepEqual(
    plan?.actions.map((a) => [a.action, a.kind, a.reason, a.targets.map((t) => t.id)]),
    [
      ["fold", "conversation", "resolved_turn", ["conversation:user:5"]],
      ["fold", "function", "stable_artifact", ["function:read:12"]],
      ["prune", "function", "obsolete_trace", ["function:exec:9"]],
    ],
  );
  assert.deepEqual(plan?.actions[1]?.targets[0]?.position, { line: 14, column: 5 });
});

test("full ids, several ids per element, commas, an xml fence and surrounding whitespace are accepted", () => {
  const xml = `\n\n\`\`\`xml\n${wrap('<mask kind="function" reason="repetitive_log">function:exec:3, exec:4\n exec:5</mask>')}\n\`\`\`\n  `;
  const { plan, errors } = parsePlan(xml);
  assert.deepEqual(errors, []);
  assert.deepEqual(
    plan?.actions[0]?.targets.map((t) => t.id),
    ["function:exec:3", "function:exec:4", "function:exec:5"],
  );
  assert.deepEqual(
    plan?.actions[0]?.targets.map((t) => t.written),
    ["function:exec:3", "exec:4", "exec:5"],
  );
});

test("an empty gc_plan is a valid plan with no actions", () => {
  assert.deepEqual(parsePlan(wrap("")).plan?.actions, []);
  assert.deepEqual(parsePlan("<above_conversation_summary>s</above_conversation_summary><gc_plan/>").plan?.actions, []);
});

test("missing blocks are reported at the start and the end of the output", () => {
  assert.deepEqual(problems('<gc_plan><prune kind="function" reason="x">exec:1</prune></gc_plan>'), ["missing_summary@1:1"]);
  assert.deepEqual(problems("<above_conversation_summary>s</above_conversation_summary>"), ["missing_plan@1:59"]);
  assert.deepEqual(problems("   "), ["empty_output@1:1"]);
});

test("blocks in the wrong order or twice are reported where the offending block opens", () => {
  assert.deepEqual(problems("<gc_plan></gc_plan>\n<above_conversation_summary>s</above_conversation_summary>"), ["wrong_order@2:1"]);
  assert.deepEqual(problems(`${wrap("")}\n<gc_plan></gc_plan>`), ["duplicate_block@5:1"]);
});

test("unknown elements, inside the plan or at the top, are named with their position", () => {
  assert.deepEqual(problems(wrap('<delete kind="function" reason="x">exec:1</delete>')), ["unknown_element@3:1"]);
  assert.deepEqual(problems(`<notes>hi</notes>\n${wrap("")}`), ["unknown_element@1:1"]);
  assert.deepEqual(problems(wrap("<!-- think -->")), ["unknown_element@3:1"]);
});

test("kind must be conversation or function and agree with the id", () => {
  assert.deepEqual(problems(wrap('<fold kind="turn" reason="x">user:1</fold>')), ["bad_kind@3:7"]);
  assert.deepEqual(problems(wrap('<fold kind="function" reason="x">user:1</fold>')), ["kind_mismatch@3:34"]);
  assert.deepEqual(problems(wrap('<fold kind="conversation" reason="x">read:2</fold>')), ["kind_mismatch@3:38"]);
  assert.deepEqual(problems(wrap('<fold kind="conversation" reason="x">function:read:2</fold>')), ["kind_mismatch@3:38"]);
});

test("attributes: unknown, missing, duplicated or empty ones are errors", () => {
  assert.deepEqual(problems(wrap('<prune kind="function" reason="x" priority="high">exec:1</prune>')), ["unknown_attribute@3:35"]);
  assert.deepEqual(problems(wrap('<prune reason="x">exec:1</prune>')), ["missing_attribute@3:1"]);
  assert.deepEqual(problems(wrap('<prune kind="function">exec:1</prune>')), ["missing_attribute@3:1"]);
  assert.deepEqual(problems(wrap('<prune kind="function" kind="function" reason="x">exec:1</prune>')), ["duplicate_attribute@3:24"]);
  assert.deepEqual(problems(wrap('<prune kind="function" reason="  ">exec:1</prune>')), ["empty_reason@3:24"]);
});

test("an action with no id, or a malformed id, is an error", () => {
  assert.deepEqual(problems(wrap('<prune kind="function" reason="x">  </prune>')), ["empty_target@3:1"]);
  assert.deepEqual(problems(wrap('<prune kind="function" reason="x"/>')), ["empty_target@3:1"]);
  assert.deepEqual(problems(wrap('<prune kind="function" reason="x">exec</prune>')), ["bad_id@3:35"]);
  assert.deepEqual(problems(wrap('<prune kind="function" reason="x">exec:0 Exec:2</prune>')), ["bad_id@3:35", "bad_id@3:42"]);
});

test("a target named by two actions is a warning: the plan stays usable for rehearsal", () => {
  const result = parsePlan(wrap('<fold kind="function" reason="a">read:1</fold>\n<prune kind="function" reason="b">function:read:1</prune>'));
  assert.deepEqual(
    result.errors.map((e) => [e.code, e.severity, e.line, e.column]),
    [["duplicate_target", "warning", 4, 35]],
  );
  assert.equal(result.plan?.actions.length, 2);
});

test("text outside the blocks or between actions is reported at its first character", () => {
  assert.deepEqual(problems(`Here is my plan:\n${wrap("")}`), ["text_outside_blocks@1:1"]);
  assert.deepEqual(problems(wrap('  also this\n<prune kind="function" reason="x">exec:1</prune>')), ["text_outside_blocks@3:3"]);
  assert.deepEqual(problems(`${wrap("")}\nDone.`), ["text_outside_blocks@5:1"]);
});

test("structural damage: unclosed, mismatched, nested and malformed tags", () => {
  assert.deepEqual(problems('<above_conversation_summary>s</above_conversation_summary>\n<gc_plan>\n<prune kind="function" reason="x">exec:1</prune>'), [
    "unclosed_element@2:1",
  ]);
  assert.deepEqual(problems(wrap('<prune kind="function" reason="x">exec:1</fold>')), ["mismatched_close@3:41"]);
  assert.deepEqual(problems(wrap('<prune kind="function" reason="x"><id>exec:1</id></prune>')), ["empty_target@3:1", "nested_element@3:35"]);
  assert.deepEqual(problems(wrap('<prune kind=function reason="x">exec:1</prune>')), ["malformed_tag@3:13"]);
  assert.deepEqual(problems("<above_conversation_summary></above_conversation_summary><gc_plan></gc_plan>"), ["empty_summary@1:1"]);
});

test("every problem is reported, not just the first", () => {
  const codes = parsePlan(
    wrap('<drop kind="function" reason="x">exec:1</drop>\n<fold kind="x" reason="y">read:1</fold>\n<mask kind="function" reason="z"></mask>'),
  ).errors.map((e) => e.code);
  assert.deepEqual(codes, ["unknown_element", "bad_kind", "empty_target"]);
});

test("a parsed plan round-trips through the XML writer", () => {
  const first = parsePlan(LISTING_2).plan!;
  const again = parsePlan(planToXml(first)).plan!;
  assert.deepEqual(
    again.actions.map((a) => [a.action, a.kind, a.reason, a.targets.map((t) => t.id)]),
    first.actions.map((a) => [a.action, a.kind, a.reason, a.targets.map((t) => t.id)]),
  );
});
