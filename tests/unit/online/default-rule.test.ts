import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageAggregator } from "@/lib/online/assignment/aggregate";
import { defaultAssignRule, formatAssignRule, parseAssignRule, type AssignRule } from "@/lib/online/assignment/assign";
import { describeGroupBalance, groupBalance } from "@/lib/online/estimation/group-balance";
import type { UsageRow } from "@/lib/online/usage/schema";

const at = (minute: number) => Date.parse("2026-05-25T10:00:00Z") + minute * 60_000;
/** Accounts whose names all start at or after `o`, each labelled by the log's own group column. */
const ROWS: UsageRow[] = ["uma", "victor", "walt", "xena", "yuri", "zoe"].map((name, i) => ({
  timestamp: at(i),
  account: `${name}@example.com`,
  group: i % 2 === 0 ? "treatment" : "control",
  inputTokens: 1_000 + i,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 10,
}));

function aggregate(rule: AssignRule, rows: readonly UsageRow[] = ROWS) {
  const agg = new UsageAggregator({ rule, timeZone: "UTC" });
  for (const row of rows) agg.add(row);
  return agg;
}

test("a log whose first row carries a group label defaults to its group column; otherwise the e-mail pivot", () => {
  assert.deepEqual(defaultAssignRule("group", "treatment"), { kind: "column", column: "group" });
  assert.deepEqual(defaultAssignRule("arm", "B"), { kind: "column", column: "arm" });
  assert.deepEqual(defaultAssignRule("group", undefined), { kind: "email-pivot", pivot: "o" }, "a mapped but empty column (usage built from traces)");
  assert.deepEqual(defaultAssignRule("group", "blue"), { kind: "email-pivot", pivot: "o" }, "a label naming neither group");
  assert.deepEqual(defaultAssignRule(undefined, "treatment"), { kind: "email-pivot", pivot: "o" });
});

test("rules print in the form they are parsed from", () => {
  for (const spec of ["column:group", "email-pivot:o", "hash:s1"]) assert.equal(formatAssignRule(parseAssignRule(spec)), spec);
});

test("both groups present: no warning", () => {
  const agg = aggregate({ kind: "column", column: "group" });
  const balance = groupBalance(agg);
  assert.equal(balance.status, "ok");
  assert.deepEqual(balance.counts, { treatment: { accounts: 3, calls: 3 }, control: { accounts: 3, calls: 3 } });
  assert.equal(describeGroupBalance(balance, { rule: agg.options.rule, groupColumn: "group", unassigned: 0 }), null);
});

test("the e-mail pivot puts every account in treatment: the warning names the empty group, the counts and the group column", () => {
  const rule: AssignRule = { kind: "email-pivot", pivot: "o" };
  const balance = groupBalance(aggregate(rule));
  assert.equal(balance.status, "empty-group");
  const text = describeGroupBalance(balance, { rule, groupColumn: "group", unassigned: 0 });
  assert.match(text ?? "", /^The control group is empty: all 6 accounts \(6 calls\) fell in treatment under account e-mail first character ≥ "o"/);
  assert.match(text ?? "", /assign by it \(column:group\)/);
});

test("one account left: the warning says so in the singular", () => {
  const rule: AssignRule = { kind: "hash", salt: "s" };
  const one = aggregate(rule, ROWS.slice(0, 1));
  const balance = groupBalance(one);
  assert.equal(balance.status, "empty-group");
  assert.match(describeGroupBalance(balance, { rule, unassigned: 0 }) ?? "", /all 1 account \(1 call\) fell in/);
});

test("labels naming neither group leave no call: the warning says why", () => {
  const rule: AssignRule = { kind: "column", column: "group" };
  const agg = aggregate(
    rule,
    ROWS.map((r) => ({ ...r, group: "blue" })),
  );
  const balance = groupBalance(agg);
  assert.equal(balance.status, "no-calls");
  assert.match(
    describeGroupBalance(balance, { rule, groupColumn: "group", unassigned: agg.counts.unassigned }) ?? "",
    /No call is left in either group.*6 calls had a group label naming neither group/,
  );
});
