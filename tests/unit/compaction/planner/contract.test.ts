import assert from "node:assert/strict";
import { test } from "node:test";
import { buildPlannerMessages, PLANNER_CONTRACT } from "../../../../lib/compaction/planner/contract";
import { FEW_SHOT_EXAMPLES } from "../../../../lib/compaction/planner/few-shot";
import { parsePlan } from "../../../../lib/compaction/planner/parse-plan";
import { renderIndexedPrefix } from "../../../../lib/compaction/planner/render-prefix";
import { body, fixture } from "./fixtures";

test("the contract states the seed's rules in order: exclusions, dependencies, granularity, actions, sanity check", () => {
  const order = ["1. Exclusions", "2. Future dependencies", "3. Granularity", "4. Action semantics", "5. Sanity check"].map((h) => PLANNER_CONTRACT.indexOf(h));
  assert.ok(
    order.every((i) => i > 0),
    "every rule heading is present",
  );
  assert.deepEqual(
    [...order].sort((a, b) => a - b),
    order,
  );
  for (const phrase of ["latest visible turn", "AGENTS.md", "live handles", "editable artifact bodies", "exact evidence", "do not…", "prefer tool-level"]) {
    assert.ok(PLANNER_CONTRACT.toLowerCase().includes(phrase.toLowerCase()), phrase);
  }
});

test("every few-shot plan parses cleanly and uses only ids shown in its prefix", () => {
  assert.ok(FEW_SHOT_EXAMPLES.length >= 4);
  for (const example of FEW_SHOT_EXAMPLES) {
    const parsed = parsePlan(example.plan);
    assert.deepEqual(parsed.errors, [], example.lesson);
    for (const a of parsed.plan!.actions) for (const t of a.targets) assert.ok(example.prefix.includes(t.id), `${example.lesson}: ${t.id}`);
  }
});

test("the prefix renders in Listing 1 style: header metadata with turn_id, a <turn> tag after each result", () => {
  const { input } = fixture([
    ["user", "What does this file do?"],
    ["call", "Read", { file_path: "src/main.py" }, 'def main():\n    print("Self-GC System Running...")'],
    ["assistant", "It prints a banner."],
    ["user", "Thanks."],
  ]);
  const text = renderIndexedPrefix(input);
  assert.ok(text.includes('[User]\nHeader metadata:\n{\n  "label": "user",\n  "turn_id": "conversation:user:1"'), text);
  assert.ok(text.includes('[Tool result: Read(src/main.py)]\ndef main():\n    print("Self-GC System Running...")\n<turn id="function:read:1" tokens="'), text);
  assert.match(text, /--- latest visible turn: protected[^\n]*\n\n\[User\]\nHeader metadata:\n\{[^}]*"latest": true/);
});

test("long outputs are elided with their size; the prompt carries contract, examples and prefix", () => {
  const { input } = fixture([
    ["user", "Read it."],
    ["call", "WebFetch", { url: "https://a.example.com" }, body("page", 2_000)],
    ["user", "ok"],
  ]);
  const [system, user] = buildPlannerMessages(input, { maxChars: 4_000 });
  assert.equal(system?.role, "system");
  assert.ok(system!.content.startsWith(PLANNER_CONTRACT));
  assert.match(system!.content, /EXAMPLE 4/);
  assert.match(user!.content, /\[… [\d,]+ chars elided …\]/);
  assert.ok(user!.content.length < 6_000, `${user!.content.length} chars`);
});
