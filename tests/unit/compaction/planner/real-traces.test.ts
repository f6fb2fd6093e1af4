import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "../../../../lib/compaction/planner/parse-plan";
import { renderIndexedPrefix } from "../../../../lib/compaction/planner/render-prefix";
import { planWithRules } from "../../../../lib/compaction/planner/rule-based/planner";
import { allTraceCuts } from "./trace-cuts";

test("the rule-based planner's XML parses without a single problem on every real trace at every replay cut", async () => {
  const cuts = await allTraceCuts();
  assert.ok(cuts.length > 500, `only ${cuts.length} cuts`);
  let targets = 0;
  for (const { where, input } of cuts) {
    const output = planWithRules(input);
    const parsed = parsePlan(output.xml);
    assert.deepEqual(parsed.errors, [], where);
    for (const action of parsed.plan!.actions) {
      for (const target of action.targets) {
        const object = input.index.byId.get(target.id);
        assert.ok(object, `${where}: ${target.id} does not exist`);
        assert.ok(object.firstMessage < input.cut, `${where}: ${target.id} is after the cut`);
        assert.ok(!input.protect.messages.has(object.firstMessage), `${where}: ${target.id} is protected`);
        targets++;
      }
    }
  }
  assert.ok(targets > 100, `the planner proposed only ${targets} actions across all cuts`);
});

test("the rendered prefix stays bounded on the longest real sessions and tags every tool result", async () => {
  const cuts = (await allTraceCuts()).filter((c) => c.path.includes("claude_code_jsonl") && c.input.index.prefixTokens[c.cut]! > 100_000);
  assert.ok(cuts.length > 0);
  for (const { where, input } of cuts) {
    const text = renderIndexedPrefix(input);
    assert.ok(text.length < 140_000, `${where}: ${text.length} chars`);
    const results = input.index.objects.filter((o) => o.kind === "function" && o.firstMessage < input.cut).length;
    assert.equal(text.match(/<turn id="function:/g)?.length, results, where);
    assert.match(text, /"turn_id": "conversation:user:1"/);
    assert.match(text, /chars elided/);
  }
});
