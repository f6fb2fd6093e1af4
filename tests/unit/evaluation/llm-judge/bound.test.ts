import assert from "node:assert/strict";
import { test } from "node:test";
import { elideText, fitEntries, type Entry } from "../../../../lib/evaluation/llm-judge";

test("elideText keeps head and tail within the limit and says how much it hid", () => {
  const text = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n");
  const out = elideText(text, 300);
  assert.ok(out.length <= 300, String(out.length));
  assert.ok(out.startsWith("line 0\n"));
  assert.ok(out.endsWith("line 199"));
  const hidden = Number(/\[… (\d+) chars elided …\]/.exec(out)![1]);
  assert.equal(out.length - out.match(/\n\[… \d+ chars elided …\]\n/)![0].length + hidden, text.length);
});

test("elideText leaves short texts alone, even under a tiny limit (a marker would be longer)", () => {
  assert.equal(elideText("short", 2), "short");
  assert.equal(elideText("exactly fits", 12), "exactly fits");
});

const entries = (n: number, size: number): Entry[] => Array.from({ length: n }, (_, i) => ({ header: `[entry ${i}]`, body: `${i}:`.padEnd(size, "x") }));

test("fitEntries returns everything untouched when it fits", () => {
  const r = fitEntries(entries(3, 10), 1_000);
  assert.equal(r.elided, false);
  assert.equal(r.text.split("\n\n").length, 3);
});

test("fitEntries shrinks bodies to a common cap before dropping any entry", () => {
  const r = fitEntries(entries(5, 2_000), 4_000);
  assert.ok(r.text.length <= 4_000);
  assert.ok(r.elided);
  for (let i = 0; i < 5; i++) assert.match(r.text, new RegExp(`\\[entry ${i}\\]`));
  assert.equal((r.text.match(/chars elided/g) ?? []).length, 5);
});

test("fitEntries drops middle entries (keeping both ends) or trailing ones (keep: head) and counts them", () => {
  const ends = fitEntries(entries(200, 400), 6_000, { noun: "messages" });
  assert.ok(ends.text.length <= 6_000);
  assert.match(ends.text, /^\[entry 0\]/);
  assert.match(ends.text, /\[entry 199\]\n199:x+/);
  const dropped = Number(/\[… (\d+) messages elided for length …\]/.exec(ends.text)![1]);
  assert.equal((ends.text.match(/^\[entry \d+\]$/gm) ?? []).length + dropped, 200);
  const head = fitEntries(entries(200, 400), 6_000, { keep: "head", noun: "future messages" });
  assert.match(head.text, /^\[entry 0\]/);
  assert.match(head.text, /\[… \d+ future messages elided for length …\]$/);
});

test("fitEntries never exceeds the budget across sizes", () => {
  for (const budget of [300, 1_000, 5_000, 20_000]) {
    for (const [n, size] of [
      [1, 50_000],
      [10, 3_000],
      [500, 100],
    ] as const) {
      const r = fitEntries(entries(n, size), budget);
      assert.ok(r.text.length <= budget, `${n}×${size} in ${budget}: ${r.text.length}`);
    }
  }
});
