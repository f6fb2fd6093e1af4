import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "../../../../lib/compaction/planner/parse-plan";
import { planWithRules } from "../../../../lib/compaction/planner/rule-based/planner";
import { body, fixture, log, type Step } from "./fixtures";

/** The plan the rule-based planner emits, as id → "action reason-code", after the strict parser. */
function decisions(steps: Step[]): Map<string, string> {
  const { input } = fixture(steps);
  const output = planWithRules(input);
  const parsed = parsePlan(output.xml);
  assert.deepEqual(parsed.errors, [], output.xml);
  const out = new Map<string, string>();
  for (const a of parsed.plan!.actions) for (const t of a.targets) out.set(t.id, `${a.action} ${a.reason.split(":")[0]}`);
  return out;
}

/** Small recent steps so the objects under test are outside the working set at the end. */
const tail: Step[] = [
  ["call", "Bash", { command: "git status" }, "nothing to commit"],
  ["call", "Bash", { command: "ls src" }, "main.py util.py"],
  ["call", "Bash", { command: "echo one" }, "one"],
  ["call", "Bash", { command: "echo two" }, "two"],
  ["call", "Bash", { command: "echo three" }, "three"],
  ["call", "Bash", { command: "echo four" }, "four"],
];
const run = (...middle: Step[]): Step[] => [
  ["system", "You are a coding agent."],
  ["user", "Ship the release."],
  ...middle,
  ...Array.from({ length: 8 }, () => tail).flat(),
];

test("a large result that introduced a live handle (job id used later) is folded as a live body, never pruned; without the later use it is a stable body", () => {
  const submit: Step = ["call", "Bash", { command: "scheduler submit nightly.yaml" }, `submitted job_7f3a2c\n${body("submit log")}`];
  const { input } = fixture(run(submit, ["call", "Bash", { command: "scheduler status job_7f3a2c" }, "RUNNING"]));
  const plan = parsePlan(planWithRules(input).xml).plan!;
  const fold = plan.actions.find((a) => a.targets.some((t) => t.id === "function:exec:1"));
  assert.equal(fold?.action, "fold");
  assert.match(fold!.reason, /^live_body: introduced job_7f3a2c/);
  const unused = decisions(run(submit, ["call", "Bash", { command: "scheduler list" }, "none"]));
  assert.equal(unused.get("function:exec:1"), "fold stable_body");
});

test("a small result holding a live handle is kept visible", () => {
  const d = decisions(
    run(
      ["call", "Bash", { command: "scheduler submit nightly.yaml" }, "submitted job_7f3a2c"],
      ["call", "Bash", { command: "scheduler status job_7f3a2c" }, "RUNNING"],
    ),
  );
  assert.equal(d.get("function:exec:1"), undefined);
});

test("a user correction keeps its turn visible; the same turn without it is folded whole", () => {
  // The turn's bulk is assistant prose, which tool-level actions cannot reach.
  const turn = (request: string): Step[] => [
    ["system", "You are an agent."],
    ["user", request],
    ["call", "WebFetch", { url: "https://example.com/a" }, body("page a", 10)],
    ["assistant", body("comparison", 200)],
    ["assistant", "Done."],
    ["user", "Next: check the weather."],
    ...tail,
    ["assistant", "Sunny."],
    ["user", "Thanks, what else?"],
  ];
  const corrected = decisions(turn("Fix the totals row. Do not replace the table header."));
  assert.equal(corrected.get("conversation:user:1"), undefined);
  const plain = decisions(turn("Compare these two vendor pages."));
  assert.equal(plain.get("conversation:user:1"), "fold resolved_turn");
  assert.equal(plain.get("function:web_fetch:1"), undefined, "inner actions are subsumed by the turn fold");
});

test("a tool result carrying the user's rejection feedback is kept", () => {
  const d = decisions(
    run([
      "call",
      "Bash",
      { command: "rm -rf build" },
      `The user doesn't want to proceed with this tool use. They said: keep the build dir.\n${body("x")}`,
      { isError: true },
    ]),
  );
  assert.equal(d.get("function:exec:1"), undefined);
});

test("a failed attempt superseded by a later success is pruned; the success is kept", () => {
  const d = decisions(
    run(
      ["call", "Bash", { command: "pytest tests/unit" }, "Exit code 1\nFAILED tests/unit/test_a.py::test_x", { isError: true }],
      ["call", "Bash", { command: "pytest tests/unit -x" }, "12 passed"],
    ),
  );
  assert.equal(d.get("function:exec:1"), "prune superseded_failure");
  assert.equal(d.get("function:exec:2"), undefined);
});

test("a failure with no later success is the current blocker and is kept", () => {
  const d = decisions(run(["call", "Bash", { command: "deploy --prod" }, "Error: permission denied", { isError: true }]));
  assert.equal(d.get("function:exec:1"), undefined);
});

test("a repetitive log is masked, a stack trace of the same size is not", () => {
  const d = decisions(run(["call", "Bash", { command: "mix compile" }, log(120)], ["call", "Bash", { command: "python run.py" }, traceback(120)]));
  assert.equal(d.get("function:exec:1"), "mask repetitive_log");
  assert.notEqual(d.get("function:exec:2")?.split(" ")[0], "mask");
});

test("the older of two identical reads of the same file is collected (pruned when small, folded when large); the newer one stays", () => {
  const large = decisions(run(["call", "Read", { file_path: "src/app.py" }, body("app v1")], ["call", "Read", { file_path: "src/app.py" }, body("app v1")]));
  assert.equal(large.get("function:read:1"), "fold duplicate_read");
  assert.notEqual(large.get("function:read:2")?.split(" ")[1], "duplicate_read");
  const small = decisions(
    run(["call", "Read", { file_path: "src/app.py" }, body("app v1", 8)], ["call", "Read", { file_path: "src/app.py" }, body("app v1", 8)]),
  );
  assert.equal(small.get("function:read:1"), "prune duplicate_read");
});

test("a re-read after the file changed is not a duplicate: the older text is unique", () => {
  const d = decisions(run(["call", "Read", { file_path: "src/app.py" }, body("app v1", 8)], ["call", "Read", { file_path: "src/app.py" }, body("app v2", 8)]));
  assert.notEqual(d.get("function:read:1")?.split(" ")[1], "duplicate_read");
});

test("a superseded failure whose output a later step quoted is not pruned", () => {
  const failure = "AssertionError: expected the invoice total to equal the ledger sum";
  const d = decisions(
    run(
      ["call", "Bash", { command: "pytest tests/unit" }, `Exit code 1\n${failure}`, { isError: true }],
      ["call", "Bash", { command: "pytest tests/unit -x" }, "12 passed"],
      ["call", "Write", { file_path: "NOTES.md", content: `# Fixed\n${failure}\n` }, "File written"],
    ),
  );
  assert.equal(d.get("function:exec:1"), undefined);
});

test("a read followed by a full rewrite of the file is superseded; one followed by an edit is the editable body", () => {
  const d = decisions(
    run(
      ["call", "Read", { file_path: "src/a.py" }, body("a")],
      ["call", "Write", { file_path: "src/a.py", content: "new a" }, "File written"],
      ["call", "Read", { file_path: "src/b.py" }, body("b")],
      ["call", "Edit", { file_path: "src/b.py", old_string: "x", new_string: "y" }, "File edited"],
    ),
  );
  assert.equal(d.get("function:read:1"), "fold superseded_by_write", "large obsolete trace is folded, not pruned");
  assert.equal(d.get("function:read:2"), "fold editable_artifact", "the editable body is folded under pressure, never pruned");
});

test("shell reads and in-place edits (SWE-style runs) count as reads and edits", () => {
  const d = decisions(
    run(
      ["call", "bash", { command: "cat src/models.py" }, body("models")],
      ["call", "bash", { command: "cat src/models.py" }, body("models")],
      ["call", "bash", { command: "sed -i 's/a/b/' src/models.py" }, ""],
    ),
  );
  assert.equal(d.get("function:exec:1"), "fold duplicate_read");
  assert.equal(d.get("function:exec:2"), "fold editable_artifact", "the latest read before the edit is the editable body");
});

test("a large stable body is folded; instruction and contract reads are never targeted", () => {
  const d = decisions(
    run(
      ["call", "WebFetch", { url: "https://docs.example.com/guide" }, body("guide")],
      ["call", "Read", { file_path: "AGENTS.md" }, body("agents")],
      ["call", "Read", { file_path: "docs/api-schema.json" }, body("schema")],
    ),
  );
  assert.equal(d.get("function:web_fetch:1"), "fold stable_body");
  assert.equal(d.get("function:read:1"), undefined);
  assert.equal(d.get("function:read:2"), undefined);
});

test("a result a later call copied lines from verbatim (a row cited in a report) is exact evidence: folded when large, never masked or pruned", () => {
  const quoted = "EMEA | 2024-Q3 | revenue 1,204,331.07 | margin 18.2%";
  const table = `${body("row")}\n${quoted}\n${body("more rows")}`;
  const d = decisions(
    run(
      ["call", "Bash", { command: "psql -c 'select * from sales'" }, table],
      ["call", "Write", { file_path: "report.md", content: `# Q3 report\n${quoted}\n` }, "File written"],
    ),
  );
  assert.equal(d.get("function:exec:1"), "fold source_evidence");
});

test("a call that generated a large body (a Write's content) is folded as a generated body", () => {
  const d = decisions(run(["call", "Write", { file_path: "docs/report.md", content: body("report", 120) }, "File written"]));
  assert.equal(d.get("function:write:1"), "fold generated_body");
});

test("a search nobody used is pruned", () => {
  const d = decisions(run(["call", "Grep", { pattern: "TODO" }, "lib/x.ts:3: TODO one\nlib/y.ts:9: TODO two"]));
  assert.equal(d.get("function:grep:1"), "prune obsolete_search");
});

test("nothing in the protected latest turn or the working set is ever targeted", () => {
  const steps: Step[] = [
    ["user", "Earlier task."],
    ["call", "WebFetch", { url: "https://a.example.com" }, body("a")],
    ["assistant", "ok"],
    ["user", "Now this."],
    ["call", "WebFetch", { url: "https://b.example.com" }, body("b")],
    ["call", "Bash", { command: "make" }, log(200)],
  ];
  const { input } = fixture(steps);
  const ids = parsePlan(planWithRules(input).xml).plan!.actions.flatMap((a) => a.targets.map((t) => t.id));
  for (const id of ids) {
    const object = input.index.byId.get(id)!;
    assert.ok(!input.protect.messages.has(object.firstMessage), `${id} is protected`);
  }
});

test("every decision carries a reason and the summary describes the session", () => {
  const { input } = fixture(run(["call", "WebFetch", { url: "https://x.example.com" }, body("x")]));
  const plan = parsePlan(planWithRules(input).xml).plan!;
  assert.match(plan.summary, /^Long single-task agent run \(1 user turns, \d+ tool results/);
  for (const a of plan.actions) assert.match(a.reason, /^[a-z_]+: /);
});

function traceback(lines: number): string {
  const frames = Array.from({ length: lines }, (_, i) => `  File "/srv/app/module_${i}.py", line ${i + 10}, in handler_${i}`);
  return ["Traceback (most recent call last):", ...frames, "ValueError: bad input"].join("\n");
}
