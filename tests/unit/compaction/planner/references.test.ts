import assert from "node:assert/strict";
import { test } from "node:test";
import { findReferences } from "../../../../lib/compaction/planner/rule-based/references";
import { fixture, type Step } from "./fixtures";

/** Messages: 0 user, 1–2 list, 3–4 read a, 5–6 read b, 7 assistant, 8–9 read c, 10 user. */
const steps: Step[] = [
  ["user", "Fix the failing import in the service."],
  ["call", "ls", { path: "src" }, "src/app/service.ts\nsrc/app/other.ts"],
  ["call", "read", { file_path: "src/app/service.ts" }, "import { x } from 'lib/helpers/util.ts';\nexport const service = 1;"],
  ["call", "read", { file_path: "src/app/other.ts" }, "see https://example.com/docs/other for details"],
  ["assistant", "The helper lives in lib/helpers/util.ts; the docs page https://example.com/docs/other is unrelated."],
  ["call", "read", { file_path: "lib/helpers/util.ts" }, "export const x = 2;"],
  ["user", "Go on."],
];

test("a result is referenced until the last later message that repeats a value it introduced", () => {
  const { input } = fixture(steps);
  const { lastUse } = findReferences(input);
  // The listing (indexed as a glob) introduced both paths; the reads at 3 and 5 named them.
  assert.equal(lastUse.get("function:glob:1"), 5);
  // read:1 introduced lib/helpers/util.ts: the assistant named it at 7, the read at 8 used it.
  assert.equal(lastUse.get("function:read:1"), 8);
  // read:2 introduced the url; only the assistant text at 7 repeated it.
  assert.equal(lastUse.get("function:read:2"), 7);
  // Nothing after read:3 repeats what it showed.
  assert.equal(lastUse.has("function:read:3"), false);
});

test("only the prefix is read: a reference after the cut does not count", () => {
  const { input } = fixture(steps, 7);
  const { lastUse } = findReferences(input);
  assert.equal(lastUse.has("function:read:2"), false);
  assert.equal(lastUse.get("function:read:1"), undefined);
});

test("a later tool result repeating a value is not a reference, and a value the agent wrote first belongs to no result", () => {
  const { input } = fixture([
    ["user", "Look at lib/core/engine.ts please."],
    ["call", "grep", { pattern: "engine" }, "lib/core/engine.ts:3: engine()"],
    ["call", "exec", { command: "git log --stat" }, "lib/core/engine.ts | 2 +-"],
    ["call", "read", { file_path: "lib/core/engine.ts" }, "export function engine() {}"],
  ]);
  const { lastUse } = findReferences(input);
  assert.equal(lastUse.size, 0);
});
