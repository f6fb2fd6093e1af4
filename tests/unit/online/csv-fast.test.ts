import assert from "node:assert/strict";
import { test } from "node:test";
import { readCsv, readCsvBatches, type CsvItem } from "@/lib/online/usage/csv";
import { toTimestamp } from "@/lib/online/usage/values";
import { referenceReadCsv } from "../../helpers/csv-reference";

async function all(gen: AsyncIterable<CsvItem>): Promise<CsvItem[]> {
  const out: CsvItem[] = [];
  for await (const item of gen) out.push(item);
  return out;
}

/** A tiny seeded generator (mulberry32) so a failure reproduces. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ["a", "b", "1", ",", ",", '"', '""', "\n", "\r\n", "\r", " ", "é", "\uFEFF"];

/** Every cut of `text` into chunks at the given positions. */
function cutAt(text: string, cuts: number[]): string[] {
  const sorted = [...new Set(cuts)].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const c of sorted) (out.push(text.slice(last, c)), (last = c));
  out.push(text.slice(last));
  return out;
}

test("the fast reader gives exactly the reference reader's cells, lines and located errors on random CSV, however it is chunked", async () => {
  const random = rng(42);
  for (let round = 0; round < 3_000; round++) {
    const length = Math.floor(random() * 30);
    const text = Array.from({ length }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join("");
    const cuts = Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * (text.length + 1)));
    const chunks = cutAt(text, cuts);
    const expected = await all(referenceReadCsv(chunks));
    assert.deepEqual(await all(readCsv(chunks)), expected, JSON.stringify(chunks));
  }
});

test("a well-formed log comes back in one batch per chunk, with lines counted across quoted newlines and CRLF", async () => {
  const batches: CsvItem[][] = [];
  for await (const b of readCsvBatches(['h1,h2\r\n1,"x\ny"\r\n', "2,z\n", "\n3,", "w"])) batches.push(b);
  assert.deepEqual(
    batches.map((b) => b.length),
    [2, 1, 1],
  );
  assert.deepEqual(
    batches.flat().map((i) => (i.ok ? [i.record.line, ...i.record.cells] : null)),
    [
      [1, "h1", "h2"],
      [2, "1", "x\ny"],
      [4, "2", "z"],
      [6, "3", "w"],
    ],
  );
});

test("an unclosed quote stops reading with its line, even when more chunks follow", async () => {
  const items = await all(readCsv(['a,b\n1,"open\n', "more\n", "2,3\n"]));
  assert.equal(items.length, 2);
  assert.deepEqual(items[1], {
    ok: false,
    issue: {
      line: 2,
      column: "#2",
      expected: "a closing quote",
      message: "expected a closing quote for the cell opened on line 2, found the end of the input",
    },
  });
});

test("the hand-parsed ISO timestamps equal Date.parse on every shape the fast path takes, and refuse what it refuses", () => {
  const cases = [
    "2026-05-25T09:30:12Z",
    "2026-05-25 09:30:12Z",
    "2026-05-25t09:30:12z",
    "2026-05-25T09:30:12.5Z",
    "2026-05-25T09:30:12.1239Z",
    "2026-05-25T09:30:12.999999+02:00",
    "2026-05-25T23:59:59-0930",
    "2026-02-30T00:00:00Z",
    "2026-05-25T00:00:00+14:00",
  ];
  for (const text of cases) {
    const reference = Date.parse(text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    assert.deepEqual(toTimestamp(text), { ok: true, value: reference }, text);
    assert.deepEqual(toTimestamp(text), { ok: true, value: reference }, `${text} (cached hour)`);
  }
  for (const bad of [
    "2026-05-25T09:60:00Z",
    "2026-05-25T09:00:60Z",
    "2026-13-01T10:00:00Z",
    "2026-05-25T09:00:00+24:00",
    "2026-05-25T09:00:00",
    "2026-05-25T09:00:00.Z",
    "2026-05-25T25:00:00Z",
  ]) {
    assert.equal(toTimestamp(bad).ok, false, bad);
  }
  assert.deepEqual(toTimestamp("2026-05-25T24:00:00Z"), { ok: true, value: Date.parse("2026-05-26T00:00:00Z") }, "hour 24 goes through Date.parse as before");
  assert.deepEqual(toTimestamp("2026-05-25T09:30Z"), { ok: true, value: Date.parse("2026-05-25T09:30:00Z") }, "no seconds: the general path");
});
