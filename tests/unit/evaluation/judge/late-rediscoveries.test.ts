import assert from "node:assert/strict";
import { test } from "node:test";
import type { FutureText } from "../../../../lib/evaluation/judge/future";
import { LateRediscoveries } from "../../../../lib/evaluation/judge/late-rediscoveries";
import type { DependencyKind } from "../../../../lib/evaluation/judge/types";

/**
 * Values found per commit (shared spans, constraints) are re-discovered either by a bounded scan
 * (to their first use) or by one scan to the end kept for later commits; both must answer what a
 * scan from the commit gives: the first message showing the value whole, or showing the last of a
 * multi-line span's lines.
 */
const SPAN = "def handle(request):\n    return dispatch(request.payload)\n    log_event(request.identifier)";
const texts: FutureText[] = [
  { ref: { message: 1, part: 0 }, text: "   12→def handle(request):", segments: [] },
  { ref: { message: 3, part: 0 }, text: "Keep the canary pool for every rerun.", segments: [] },
  { ref: { message: 4, part: 0 }, text: "   13→    return dispatch(request.payload)", segments: [] },
  { ref: { message: 6, part: 0 }, text: "   14→    log_event(request.identifier)", segments: [] },
  { ref: { message: 8, part: 0 }, text: `${SPAN}\n`, segments: [] },
  { ref: { message: 9, part: 0 }, text: "Keep the canary pool for every rerunning job.", segments: [] },
];
// Per message 0..10: the first text at or after it.
const textFrom = Int32Array.from({ length: 11 }, (_, m) => {
  const i = texts.findIndex((t) => t.ref.message >= m);
  return i < 0 ? texts.length : i;
});
const values: { value: string; kind: DependencyKind }[] = [
  { value: SPAN, kind: "verbatim" },
  { value: "Keep the canary pool for every rerun.", kind: "constraint" },
  { value: "never shown anywhere at all", kind: "verbatim" },
];
// By hand: the span's lines have all shown at 6 from 0 or 1; from 2 on its first full showing is at 8 (whole).
const expected: Record<number, number[]> = {
  0: [6, 3, Infinity],
  1: [6, 3, Infinity],
  2: [8, 3, Infinity],
  4: [8, Infinity, Infinity],
  7: [8, Infinity, Infinity],
  9: [Infinity, Infinity, Infinity],
};

for (const budget of [0, Infinity]) {
  test(`budget ${budget}: ${budget === 0 ? "scanned once to the end and kept" : "scanned to the last use"}, the same first re-discoveries`, () => {
    const late = new LateRediscoveries(texts, textFrom);
    for (const at of [0, 1, 2, 4, 7, 9]) {
      const asked = values.map((v) => ({ ...v, until: 10 }));
      assert.deepEqual(late.firstAtOrAfter(at, asked, budget), expected[at], `from ${at}`);
    }
  });
}

test("a bounded scan answers past its last use with something later than that use", () => {
  const late = new LateRediscoveries(texts, textFrom);
  const [span] = late.firstAtOrAfter(2, [{ value: SPAN, kind: "verbatim", until: 5 }], Infinity);
  assert.ok(span! > 5, String(span));
});
