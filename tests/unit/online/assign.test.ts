import assert from "node:assert/strict";
import { test } from "node:test";
import { assignByEmailPivot, assignByHash, parseAssignRule } from "@/lib/online/assignment/assign";

test("e-mail pivot: first character at or after the pivot is treatment, case-folded, by code point", () => {
  const table: [string, string, "treatment" | "control" | null][] = [
    ["olga@example.com", "o", "treatment"],
    ["nina@example.com", "o", "control"],
    ["zoe@example.com", "o", "treatment"],
    ["anna@example.com", "o", "control"],
    ["Olga@example.com", "o", "treatment"],
    ["NINA@example.com", "o", "control"],
    ["Paul@example.com", "O", "treatment"],
    ["0day@example.com", "o", "control"],
    ["9lives@example.com", "o", "control"],
    ["_ops@example.com", "o", "control"],
    ["+tag@example.com", "o", "control"],
    ["élodie@example.com", "o", "treatment"],
    ["  olga@example.com", "o", "treatment"],
    ["", "o", null],
    ["   ", "o", null],
    ["a@x", "a", "treatment"],
    ["5@x", "5", "treatment"],
    ["4@x", "5", "control"],
  ];
  for (const [account, pivot, expected] of table) assert.equal(assignByEmailPivot(account, pivot), expected, `${JSON.stringify(account)} pivot ${pivot}`);
});

test("e-mail pivot defaults to o", () => {
  assert.equal(assignByEmailPivot("oscar@x"), "treatment");
  assert.equal(assignByEmailPivot("nora@x"), "control");
  assert.deepEqual(parseAssignRule("email-pivot:"), { kind: "email-pivot", pivot: "o" });
});

test("hash split is stable across calls, depends on the salt, and is balanced", () => {
  const accounts = Array.from({ length: 20_000 }, (_, i) => `user${i}@example.com`);
  const first = accounts.map((a) => assignByHash(a, "exp-1"));
  assert.deepEqual(
    accounts.map((a) => assignByHash(a, "exp-1")),
    first,
  );
  const share = first.filter((g) => g === "treatment").length / accounts.length;
  assert.ok(Math.abs(share - 0.5) < 0.015, `treatment share ${share}`);
  const other = accounts.map((a) => assignByHash(a, "exp-2"));
  const agree = other.filter((g, i) => g === first[i]).length / accounts.length;
  assert.ok(Math.abs(agree - 0.5) < 0.02, `salts should give independent splits, agreement ${agree}`);
  const quarter = accounts.filter((a) => assignByHash(a, "exp-1", 0.25) === "treatment").length / accounts.length;
  assert.ok(Math.abs(quarter - 0.25) < 0.015, `share 0.25 gave ${quarter}`);
});

test("assignment specs parse or fail with the expected forms", () => {
  assert.deepEqual(parseAssignRule("column:arm"), { kind: "column", column: "arm" });
  assert.deepEqual(parseAssignRule("hash:s1"), { kind: "hash", salt: "s1" });
  assert.throws(() => parseAssignRule("email-pivot:ab"), /one character/);
  assert.throws(() => parseAssignRule("coin"), /column:NAME, email-pivot:CHAR or hash:SALT/);
});
