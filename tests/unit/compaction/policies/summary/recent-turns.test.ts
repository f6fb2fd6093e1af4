import assert from "node:assert/strict";
import { test } from "node:test";
import { recentTurnsPolicy as policy } from "../../../../../lib/compaction/policies/summary/recent-turns";
import { countViewMessage } from "../../../../../lib/compaction/projection/materialize";
import { origins, run, session, text, tokenizer } from "./fixtures";

// Four turns; turn 3 (messages 5–8) holds a 6,003-token tool output and totals 6,034 tokens.
const s = session([
  ["system", "sys"],
  ["user", text(10)],
  ["assistant", text(100)],
  ["user", text(10)],
  ["assistant", text(100)],
  ["user", text(10)],
  ["call", "c1", "Bash", "{}"],
  ["result", "c1", `${text(3_000, "h")}\n${text(3_000, "t")}`],
  ["assistant", text(10)],
  ["user", text(10)],
  ["assistant", text(20)],
]);

test("keeps exactly the last 2 turns; the summary sits at the split point", async () => {
  const result = await run(policy, s);
  assert.deepEqual(origins(result), [0, "summary", 5, 6, 7, 8, 9, 10]);
  assert.equal(result.tailStart, 5, "tail-start pointer = first user message of the (M − N + 1)th turn");
  assert.deepEqual(
    result.actions.map((a) => a.target),
    ["conversation:user:1", "conversation:user:2"],
  );
});

test("turns = 3 keeps one more turn", async () => {
  const result = await run(policy, s, { params: { turns: 3 } });
  assert.deepEqual(origins(result), [0, "summary", 3, 4, 5, 6, 7, 8, 9, 10]);
});

const budgets: [string, number, number][] = [
  ["a large window clamps to the 8K maximum", 1_000_000, 8_000],
  ["25% of usable context in between", 30_000, 2_500],
  ["a small window clamps to the 2K minimum", 10_000, 2_000],
];
for (const [name, window, budget] of budgets) {
  test(`per-turn budget: ${name} (${budget})`, async () => {
    const result = await run(policy, s, { window });
    assert.ok(
      result.log.some((l) => l.includes(`per-turn budget ${budget} tokens`)),
      result.log.join("\n"),
    );
    const truncations = result.actions.filter((a) => a.action === "truncate");
    if (6_034 <= budget) {
      assert.equal(truncations.length, 0);
      return;
    }
    // The over-budget turn's oldest tool output is cut head/tail until the turn fits.
    assert.equal(truncations.length, 1);
    assert.equal(truncations[0]!.rule, "recent-turns/per-turn-budget");
    assert.equal(truncations[0]!.target, "function:exec:1");
    const output = result.view.find((v) => v.origin === 7)!.parts[0]!;
    assert.equal(output.type === "tool_result" && output.action, "truncate");
    const content = output.type === "tool_result" ? output.content : "";
    assert.ok(content.startsWith("hhhh") && content.endsWith("tttt") && content.includes("tokens truncated"));
    const turn = result.view.filter((v) => typeof v.origin === "number" && v.origin >= 5 && v.origin <= 8);
    const turnTokens = turn.reduce((sum, v) => sum + countViewMessage(v, tokenizer), 0);
    assert.ok(turnTokens <= budget, `turn is ${turnTokens} tokens, budget ${budget}`);
    assert.ok(result.log.some((l) => l.includes("over its") && l.includes("oldest tool outputs truncated")));
  });
}
