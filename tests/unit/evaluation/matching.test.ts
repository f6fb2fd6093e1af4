import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AhoCorasick } from "../../../lib/evaluation/judge/aho-corasick";
import { extractCandidates, isStandalone, type Candidate } from "../../../lib/evaluation/judge/candidates";
import { findSharedSpans } from "../../../lib/evaluation/judge/shared-spans";

/** Deterministic pseudo-random text over a small alphabet, so patterns overlap and repeat a lot. */
function randomText(seed: number, length: number, alphabet = "abcab c"): string {
  let x = seed >>> 0;
  let out = "";
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out;
}

describe("AhoCorasick", () => {
  test("finds exactly the occurrences a naive scan finds (overlapping, nested, repeated patterns)", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const text = randomText(seed, 600);
      const patterns = [...new Set(Array.from({ length: 12 }, (_, i) => randomText(seed * 31 + i, 1 + (i % 5))))];
      const found: string[] = [];
      new AhoCorasick(patterns).scan(text, (p, start) => found.push(`${p}@${start}`));
      const naive: string[] = [];
      patterns.forEach((pattern, p) => {
        for (let at = text.indexOf(pattern); at >= 0; at = text.indexOf(pattern, at + 1)) naive.push(`${p}@${at}`);
      });
      assert.deepEqual(found.sort(), naive.sort(), `seed ${seed}`);
    }
  });

  test("handles non-ASCII text and an empty pattern list", () => {
    const hits: number[] = [];
    new AhoCorasick(["€1.234", "“quoted”"]).scan("cost €1.234 and “quoted” text", (p) => hits.push(p));
    assert.deepEqual(hits, [0, 1]);
    new AhoCorasick([]).scan("anything", () => assert.fail("no patterns, no matches"));
  });
});

describe("findSharedSpans", () => {
  test("every span is an exact common substring of at least minLength, and long common runs are found", () => {
    const shared = "the retention window of 836 days applies to audit logs";
    const queries = [`prefix ${shared} suffix`, randomText(3, 300)];
    const corpus = [randomText(4, 500), `other words ${shared} more words`];
    const spans = findSharedSpans(queries, corpus, 20);
    for (const s of spans) {
      const text = queries[s.query]!.slice(s.start, s.end);
      assert.ok(text.length >= 20);
      assert.equal(corpus[s.corpus]!.slice(s.corpusStart, s.corpusStart + text.length), text);
    }
    assert.ok(spans.some((s) => queries[s.query]!.slice(s.start, s.end).includes(shared)));
  });

  test("nothing shorter than minLength, nothing for short texts", () => {
    assert.deepEqual(findSharedSpans(["abc"], ["abc"], 40), []);
    assert.deepEqual(findSharedSpans(["x".repeat(39) + "y"], ["x".repeat(39) + "z"], 40), []);
  });
});

describe("extractCandidates", () => {
  const kinds = (text: string) => {
    const out: Candidate[] = [];
    extractCandidates(text, (c) => out.push(c));
    return out.map((c) => `${c.kind}:${c.value}`);
  };
  const cases: [string, string[], string[]][] = [
    ["See https://docs.example.com/d/93716266f0.", ["url:https://docs.example.com/d/93716266f0"], ["id:93716266f0"]],
    [
      "Wrote reports/out/q3.fixed-413293.xlsx and /srv/app/config.yaml.",
      ["path:reports/out/q3.fixed-413293.xlsx", "path:/srv/app/config.yaml"],
      ["id:fixed-413293"],
    ],
    ["and/or I/O w/o", [], ["path:and/or"]],
    ["Job JOB-14254 hit E-2194201 in canary-587", ["id:JOB-14254", "id:E-2194201", "id:canary-587"], []],
    ["Total $12,480.50, 99.9% uptime, 4512 rows, -27543.00 credit", ["number:$12,480.50", "number:99.9%", "number:4512", "number:-27543.00"], []],
    ["On 2025-03-03 at 02:00, v1.2.3, line main.ts:42, rows 17", [], ["number:2025", "number:02", "number:1.2", "number:42", "number:17"]],
    ["call loadSessionMessages and row_classes, not Summary", ["identifier:loadSessionMessages", "identifier:row_classes"], ["identifier:Summary"]],
    ['Restore "Figures exclude intercompany transfers" and `make verify`', ["verbatim:Figures exclude intercompany transfers"], ["verbatim:make verify"]],
  ];
  for (const [text, present, absent] of cases) {
    test(JSON.stringify(text), () => {
      const got = kinds(text);
      for (const p of present) assert.ok(got.includes(p), `${p} in ${got.join(", ")}`);
      for (const a of absent) assert.ok(!got.includes(a), `${a} not in ${got.join(", ")}`);
    });
  }

  test("isStandalone: a token does not match inside a longer token or number", () => {
    assert.equal(isStandalone("id JOB-14254 ok", 3, 12, "id"), true);
    assert.equal(isStandalone("JOB-142545", 0, 9, "id"), false);
    assert.equal(isStandalone("2,623.00", 2, 8, "number"), false);
    assert.equal(isStandalone("US$2,623.00", 2, 11, "number"), true);
    assert.equal(isStandalone("xxretention window", 2, 18, "verbatim"), true);
  });
});
