import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildHistory, exportCsv, exportJsonl, importLabels, manualClock, reviseLabel, splitCsv, type ReviewLabel } from "../../../lib/review";
import { ab, confirm, cutReview, failure } from "./labels";

const nasty = 'line one,\r\n"quoted", tab\there — ünïcødé 🚀 =SUM(A1) ';
const clock = manualClock(Date.UTC(2026, 10, 23, 12));
const added: ReviewLabel = {
  ...confirm("add", "ann", "pool canary", { ref: { sessionId: "s,1", cut: 10, runId: "run-7" } }),
  decision: "add",
  dependencyId: undefined,
  value: undefined,
  type: "live_state",
  future: { message: 12, part: 0, start: 3, end: 14, text: "pool canary" },
  prefix: { message: 7, part: 1, start: 0, end: nasty.length, text: nasty },
};
delete (added as { dependencyId?: string }).dependencyId;
delete (added as { value?: string }).value;
const v1 = failure("f", "bob", { comment: nasty });
const labels: ReviewLabel[] = [
  added,
  cutReview("c", "ann"),
  v1,
  reviseLabel(v1, { category: "evidence_detail" }, clock),
  ab("x", "cid", { confidence: 0.1 + 0.2, rationale: nasty }),
];

describe("export and import", () => {
  for (const format of ["jsonl", "csv"] as const) {
    test(`${format}: round trip is exact (labels deep-equal, re-export byte-identical)`, () => {
      const text = format === "jsonl" ? exportJsonl(labels) : exportCsv(labels);
      const back = importLabels(text, format);
      assert.ok(back.ok, JSON.stringify(!back.ok && back.errors));
      assert.deepEqual(back.labels, labels);
      assert.equal(format === "jsonl" ? exportJsonl(back.labels) : exportCsv(back.labels), text);
    });

    test(`${format}: re-importing into the same history skips identical versions; changed content is refused`, () => {
      const text = format === "jsonl" ? exportJsonl(labels) : exportCsv(labels);
      const existing = buildHistory(labels);
      const again = importLabels(text, format, existing);
      assert.ok(again.ok);
      assert.deepEqual([again.labels.length, again.skipped], [0, labels.length]);
      const changed = labels.map((l) => (l.labelId === "c" ? { ...l, reviewer: "eve" } : l));
      const refused = importLabels(format === "jsonl" ? exportJsonl(changed) : exportCsv(changed), format, existing);
      assert.ok(!refused.ok);
      assert.deepEqual(
        refused.errors.map((e) => [e.line, e.field]),
        [[format === "jsonl" ? 2 : 4, "version"]],
      );
      assert.match(refused.errors[0]!.message, /already stored with different content/);
    });
  }

  test("the same version twice in one file is refused with both lines named", () => {
    const r = importLabels(exportJsonl([v1, v1]), "jsonl");
    assert.deepEqual(!r.ok && r.errors, [
      { line: 2, field: "version", expected: "a version of f not already in the file", message: "label f version 1 is also on line 1" },
    ]);
  });

  test("a version whose predecessor is nowhere is refused; nothing is accepted from a file with errors", () => {
    const r = importLabels(exportJsonl([cutReview("c", "ann"), reviseLabel(reviseLabel(v1, {}, clock), {}, clock)]), "jsonl");
    assert.ok(!r.ok);
    assert.deepEqual(
      r.errors.map((e) => [e.line, e.field, e.expected]),
      [[2, "supersedes", "the superseded version stored or earlier in the file"]],
    );
  });

  test("JSONL errors carry line, dotted field and what was expected", () => {
    const good = JSON.parse(exportJsonl([added]).trim());
    const lines = [
      "",
      "{not json",
      JSON.stringify({ ...good, future: { ...good.future, start: -1 }, extra: 1 }),
      JSON.stringify({ ...good, kind: "opinion" }),
    ].join("\n");
    const r = importLabels(lines, "jsonl");
    assert.ok(!r.ok);
    assert.deepEqual(
      r.errors.map((e) => [e.line, e.field, e.expected]),
      [
        [2, "(line)", "one JSON object"],
        [3, "future.start", "≥ 0"],
        [3, "future.end", "end − start must equal the length of text"],
        [3, "extra", "no such field"],
        [4, "kind", "one of dependency, cut_review, failure_category, ab, view_verdict"],
      ],
    );
  });

  test("CSV errors name the column and the line a (multi-line) record starts on", () => {
    const csv = exportCsv([v1, ab("x", "cid")]).replace(",0.8\n", ",lots\n");
    const r = importLabels(csv, "csv");
    assert.ok(!r.ok);
    assert.deepEqual(r.errors, [{ line: 4, field: "confidence", expected: "number", message: "Invalid input: expected number, received string" }]);
    const bad = importLabels("kind,labelId,version,mood\n", "csv");
    assert.deepEqual(!bad.ok && bad.errors.map((e) => e.field), ["mood"]);
  });

  test("the CSV splitter keeps quoted CR, LF, commas and quotes", () => {
    assert.deepEqual(splitCsv('a,"b\r\n""c"",d"\r\ne,\n'), [
      { line: 1, cells: ["a", 'b\r\n"c",d'] },
      { line: 3, cells: ["e", ""] },
    ]);
  });
});

describe("spreadsheet-safe CSV (issue 17, item 8)", () => {
  const formulas = [
    '=HYPERLINK("http://x","click")',
    "+1+1",
    "-2+3",
    "@SUM(A1)",
    "\tindented",
    "\rcarriage",
    "'=already quoted",
    "''@two quotes",
    "'plain quote",
    "fine text",
  ];
  const withComments = formulas.map((comment, i) => failure(`s${i}`, "bob", { comment }));

  test("no text cell of a labels export starts with a formula character", () => {
    const rows = splitCsv(exportCsv(withComments)).slice(1);
    for (const row of rows) for (const cell of row.cells) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, JSON.stringify(cell));
  });

  test("the escape round-trips every comment exactly, leading quotes included", () => {
    const back = importLabels(exportCsv(withComments), "csv");
    assert.ok(back.ok, JSON.stringify(!back.ok && back.errors));
    assert.deepEqual(
      back.labels.map((l) => l.comment),
      formulas,
    );
  });
});
