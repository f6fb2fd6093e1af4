import assert from "node:assert/strict";
import { test } from "node:test";
import { buildProjection } from "../../../../lib/policies/self-gc/projection";
import { mergeFoldReminders } from "../../../../lib/policies/self-gc/merge-reminders";
import { emptyPlan } from "../../../../lib/projection/types";
import { body, fixture } from "../../planner/fixtures";

const reminder = (id: string, sha: string) => `[fold] ${id} is in sidecar ${sha} — recover it before quoting or editing it.`;

test("several fold reminders on one user message become one that names every object and digest", () => {
  const plan = emptyPlan();
  plan.reminders.set(1, [reminder("function:read:1", "aaaaaaaaaaaa"), reminder("function:read:2", "bbbbbbbbbbbb")]);
  mergeFoldReminders(plan);
  assert.deepEqual(plan.reminders.get(1), ["[fold] function:read:1 is in sidecar aaaaaaaaaaaa, function:read:2 in bbbbbbbbbbbb — recover each before quoting or editing it."]);
});

test("a single reminder and reminders of another shape are left as they were", () => {
  const plan = emptyPlan();
  plan.reminders.set(1, [reminder("function:read:1", "aaaaaaaaaaaa")]);
  plan.reminders.set(5, [reminder("function:read:2", "bbbbbbbbbbbb"), "[note] something else"]);
  mergeFoldReminders(plan);
  assert.deepEqual(plan.reminders.get(1), [reminder("function:read:1", "aaaaaaaaaaaa")]);
  assert.equal(plan.reminders.get(5)!.length, 2);
});

test("folding two results of one turn leaves one reminder on its request, with both sidecar digests", () => {
  const { ctx, index } = fixture([
    ["system", "s"],
    ["user", "Read both files."],
    ["call", "Read", { file_path: "/a.txt" }, body("a", 40)],
    ["call", "Read", { file_path: "/b.txt" }, body("b", 40)],
    ["assistant", "Read."],
    ["user", "Now compare them."],
  ]);
  const edits = ["function:read:1", "function:read:2"].map((id) => ({ id, object: index.byId.get(id)!, action: "fold" as const, reason: "stable_body", position: { line: 1, column: 1 } }));
  const { plan, sidecars } = buildProjection(ctx, edits);
  const texts = plan.reminders.get(1)!;
  assert.equal(texts.length, 1);
  for (const s of sidecars) assert.ok(texts[0]!.includes(s.sha256.slice(0, 12)));
});
