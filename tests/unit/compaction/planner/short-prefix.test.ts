import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "../../../../lib/compaction/planner/parse-plan";
import { collectFacts } from "../../../../lib/compaction/planner/rule-based/facts";
import { planWithRules } from "../../../../lib/compaction/planner/rule-based/planner";
import { sizeRules } from "../../../../lib/compaction/planner/rule-based/sizing";
import { findSupersession } from "../../../../lib/compaction/planner/rule-based/supersession";
import { judgeFunction } from "../../../../lib/compaction/planner/rule-based/verdicts";
import { body, fixture, type Step } from "./fixtures";

/** id → "action reason-code" of the rule-based plan at the end of `steps`. */
function decisions(steps: Step[]): Map<string, string> {
  const { input } = fixture(steps);
  const parsed = parsePlan(planWithRules(input).xml);
  assert.deepEqual(parsed.errors, []);
  const out = new Map<string, string>();
  for (const a of parsed.plan!.actions) for (const t of a.targets) out.set(t.id, `${a.action} ${a.reason.split(":")[0]}`);
  return out;
}

/** A JSON record of about `tokens` tokens (chars4), like a tau-bench lookup. */
function record(id: string, tokens: number): string {
  const fields = Array.from({ length: Math.round(tokens / 8) }, (_, i) => `"f${i}_${id}": "v${i}x"`);
  return `{${fields.join(", ")}}`;
}

const booking = (...extra: Step[]): Step[] => [
  ["system", "You are an airline agent."],
  ["user", "I want to change my flight."],
  ["call", "get_user_details", { user_id: "mia_1" }, record("user", 60)],
  ["call", "search_onestop_flight", { origin: "ATL", destination: "PHL", date: "2024-05-24" }, body("flights ATL PHL", 240)],
  ["assistant", "I found these options."],
  ...extra,
  ["user", "The second one, please."],
];

test("a large working-set body is folded only as the reserve, when nothing older can make the plan commit", () => {
  const d = decisions(booking());
  assert.equal(d.get("function:search_onestop_flight:1"), "fold working_set");
});

test("the reserve stays closed when an older stable body already makes the plan commit", () => {
  const older: Step[] = [
    ["user", "First list my old trips."],
    ["call", "list_trips", { user_id: "mia_1" }, body("trip history", 400)],
    ...Array.from({ length: 3 }, (_, i): Step => ["call", "get_trip", { trip: `T${i}` }, `trip T${i}: done`]),
    ["assistant", "Listed."],
  ];
  const steps = booking();
  const d = decisions([...steps.slice(0, 2), ...older, ...steps.slice(2)]);
  // The long trip history is collected first (a repetitive listing: masked, head and tail kept).
  assert.equal(d.get("function:list_trips:1"), "mask repetitive_log");
  assert.equal(d.get("function:search_onestop_flight:1"), undefined);
});

test("a small working-set body is kept as recent", () => {
  const { input } = fixture(booking());
  const facts = collectFacts(input);
  const user = facts.functions.find((f) => f.object.id === "function:get_user_details:1")!;
  assert.ok(user.isRecent);
  const verdict = judgeFunction(user, { live: new Map(), quoted: new Set(), supersession: findSupersession(facts.functions) }, sizeRules(input).verdictOptions);
  assert.deepEqual(verdict, { keep: "recent" });
});

test("an identical repeated call with the same output makes the older result obsolete; a different output does not", () => {
  const lookup = (out: string): Step => ["call", "get_reservation_details", { reservation_id: "NM1VX1" }, out];
  const filler: Step[] = Array.from({ length: 6 }, (_, i): Step => ["call", "Bash", { command: `echo ${i}` }, `${i}`]);
  const same = decisions([["system", "s"], ["user", "Check NM1VX1."], lookup(record("a", 120)), ["assistant", "ok"], lookup(record("a", 120)), ...filler]);
  assert.equal(same.get("function:get_reservation_details:1"), "prune duplicate_result");
  assert.equal(same.get("function:get_reservation_details:2"), undefined);
  const changed = decisions([["system", "s"], ["user", "Check NM1VX1."], lookup(record("a", 120)), ["assistant", "ok"], lookup(record("b", 120)), ...filler]);
  assert.equal(changed.get("function:get_reservation_details:1"), undefined);
});

test("a small failed attempt is pruned once retried, unless its call carries a script (a prune would drop the call too)", () => {
  const retried = (command: string): Step[] => [
    ["system", "s"],
    ["user", "Reproduce the bug."],
    ["call", "Bash", { command }, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'numpy'", { isError: true }],
    ["call", "Bash", { command: 'python3 -c "print(1)"' }, "1"],
    ...Array.from({ length: 6 }, (_, i): Step => ["call", "Bash", { command: `echo ${i}` }, `${i}`]),
  ];
  assert.equal(decisions(retried('python3 -c "import numpy"')).get("function:exec:1"), "prune superseded_failure");
  const script = `python3 -c "\n${Array.from({ length: 14 }, (_, i) => `cright[-right.shape[0]:, -right.shape[1]:] = right  # step ${i}`).join("\n")}\n"`;
  assert.equal(decisions(retried(script)).get("function:exec:1"), undefined);
});

test("in a short prefix a mid-sized body counts as large; in a long prefix the fixed size decides", () => {
  const steps = (padding: number): Step[] => [
    ["system", "s"],
    ["user", `Summarise the notes.\n${body("context", padding)}`],
    ["call", "Read", { file_path: "/srv/notes.txt" }, body("notes", 23)],
    ...Array.from({ length: 6 }, (_, i): Step => ["call", "Bash", { command: `echo ${i}` }, `${i}`]),
  ];
  const short = fixture(steps(10));
  const notes = (f: ReturnType<typeof fixture>) => collectFacts(f.input).functions.find((x) => x.object.id === "function:read:1")!;
  const tokens = notes(short).object.tokens;
  assert.ok(tokens > 200 && tokens < 300, `precondition: ${tokens} tokens`);
  const sizing = sizeRules(short.input);
  assert.ok(sizing.verdictOptions.largeFrom!(notes(short)) <= tokens);
  const long = fixture(steps(1_600));
  assert.ok(long.index.prefixTokens.at(-1)! > 15_000);
  assert.equal(sizeRules(long.input).verdictOptions.largeFrom, undefined);
  assert.equal(sizeRules(long.input).minFoldSavings, 120);
});

test("a content search quoting source lines is folded when its pointer costs at most half of it; a path listing of the same size is pruned", () => {
  const lines = Array.from({ length: 10 }, (_, i) => `pydicom/filereader.py:${100 + i}:    if config.debugging and level > ${i}: log_${i}(tag, value)`).join(
    "\n",
  );
  const paths = Array.from({ length: 16 }, (_, i) => `pydicom/module_${i}/filereader_${i}.py`).join("\n");
  const search = (command: string, out: string): Step[] => [
    ["system", "s"],
    ["user", "Find the debug flag."],
    ["call", "Bash", { command }, out],
    ["user", "Go on."],
    ...Array.from({ length: 6 }, (_, i): Step => ["call", "Bash", { command: `echo ${i}` }, `${i}`]),
    ["user", body("padding", 1_500)],
  ];
  const grep = fixture(search('grep -rn "config.debug" .', lines));
  const tokens = grep.index.byId.get("function:exec:1")!.tokens;
  assert.ok(tokens < 300, `precondition: under the fixed large size, ${tokens} tokens`);
  assert.equal(decisions(search('grep -rn "config.debug" .', lines)).get("function:exec:1"), "fold obsolete_search");
  assert.equal(decisions(search('grep -rl "config.debug" .', paths)).get("function:exec:1"), "prune obsolete_search");
});

test("a turn whose only live parts are working-set bodies is folded whole as the reserve, however short its request (the pointer is the harness's)", () => {
  const steps = (request: string): Step[] => [
    ["system", "You are an airline agent."],
    ["user", request],
    ["call", "get_reservation_details", { reservation_id: "HXDUBJ" }, record("res", 300)],
    ["call", "search_direct_flight", { origin: "IAH", destination: "SFO", date: "2024-05-19" }, record("flights", 300)],
    ["assistant", "I found two nonstop flights."],
    ["user", "I'd prefer the one that departs after 8 am, please book that one."],
    ["assistant", "Booked."],
    ["user", "Thanks, anything else?"],
  ];
  const long = decisions(steps("I want to change the outgoing flight of reservation HXDUBJ to a nonstop one."));
  assert.equal(long.get("conversation:user:1"), "fold working_set_turn");
  // The planner no longer reasons about whether a pointer quoting the request would "route": what a
  // pointer says is the harness's business, the same for every policy (issue 16, item 1).
  const short = decisions(steps("Yes, HXDUBJ."));
  assert.equal(short.get("conversation:user:1"), "fold working_set_turn");
});
