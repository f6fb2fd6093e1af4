import assert from "node:assert/strict";
import { test } from "node:test";
import { repairLineage } from "../../../../lib/compaction/projection/lineage";
import { emptyPlan, partKey } from "../../../../lib/compaction/projection/types";
import type { Message, Part, Role } from "../../../../lib/trace/model";

const messages = (...specs: [Role, Part[]][]): Message[] =>
  specs.map(([role, parts], index) => ({ index, role, parts, source: { file: "f", line: index + 1 } }));
const call = (id: string): Part => ({ type: "tool_call", id, name: "Task", arguments: "{}" });
const result = (id: string): Part => ({ type: "tool_result", callId: id, content: `out ${id}` });

test("a dropped message brought back for a protected result does not revive its sibling call whose result is gone", () => {
  // One response with two parallel calls; a's result is in a dropped span, b's in the protected turn.
  const prefix = messages(
    ["user", [{ type: "text", text: "go" }]],
    ["assistant", [{ type: "text", text: "both" }, call("a"), call("b")]],
    ["tool", [result("a")]],
    ["tool", [result("b")]],
  );
  const plan = emptyPlan();
  plan.dropMessages.add(1);
  plan.dropMessages.add(2);
  const fixes = repairLineage(prefix, plan, (m) => m === 3);
  assert.equal(plan.dropMessages.has(1), false, "the message holding b's call is back");
  assert.deepEqual(plan.parts.get(partKey({ message: 1, part: 1 })), { op: "drop" }, "a's call, whose result stays dropped, goes");
  assert.equal(plan.parts.has(partKey({ message: 1, part: 2 })), false, "b's call stays");
  assert.deepEqual(fixes, [{ ref: { message: 1, part: 1 }, reason: "its result was removed" }]);
});

test("a result revived with its message whose call is gone is dropped again", () => {
  // Protected call p answered in a dropped tool message that also answers q, whose call was dropped.
  const prefix = messages(["assistant", [call("q")]], ["assistant", [call("p")]], ["tool", [result("q"), result("p")]]);
  const plan = emptyPlan();
  plan.dropMessages.add(0);
  plan.dropMessages.add(2);
  const fixes = repairLineage(prefix, plan, (m) => m === 1);
  assert.equal(plan.dropMessages.has(2), false);
  assert.deepEqual(plan.parts.get(partKey({ message: 2, part: 0 })), { op: "drop" });
  assert.deepEqual(fixes, [{ ref: { message: 2, part: 0 }, reason: "its call q was removed" }]);
});
