import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { hardSet, matchesFilter, selectSuite, SuiteFilterSchema, SuiteSpecSchema, toolPressure } from "../../../lib/evaluation/suites/suites";
import { loadAllTraces } from "../../helpers/load-traces";
import { analyze, session, step, text, type Analyzed } from "./fixtures";

/** Two turns, each a `talk`-character request followed by `tools` tool steps of `size` characters. */
function build(id: string, talk: number, tools: number, size: number, tool = "exec"): Analyzed {
  const steps = (turn: string) => Array.from({ length: tools }, (_, i) => step(`${id}-${turn}-${i}`, tool, { cmd: `run ${i}` }, "x".repeat(size))).flat();
  return analyze(
    session(
      [
        ["user", [text("y".repeat(talk))]],
        ...steps("a"),
        ["assistant", [text("z".repeat(talk))]],
        ["user", [text("more")]],
        ...steps("b"),
        ["assistant", [text("done")]],
      ],
      { id },
    ),
  );
}

describe("tool pressure", () => {
  test("is the median share of prefix tokens in tool results over the replay cuts", () => {
    const heavy = build("heavy", 40, 6, 4_000);
    const light = build("light", 4_000, 6, 40);
    const h = toolPressure(heavy.session, heavy.index);
    const l = toolPressure(light.session, light.index);
    assert.ok(h.atCuts.length >= 2);
    assert.ok(h.sustained > 0.8 && h.sustained <= 1, `heavy ${h.sustained}`);
    assert.ok(l.sustained < 0.2, `light ${l.sustained}`);
    const sorted = [...h.atCuts].sort((a, b) => a - b);
    assert.ok(h.sustained >= sorted[0]! && h.sustained <= sorted.at(-1)!);
  });
});

describe("hardSet", () => {
  const sessions = [
    build("a", 400, 6, 800),
    build("b", 40, 6, 4_000),
    build("c", 4_000, 6, 40),
    build("d", 40, 2, 4_000),
    build("e", 40, 6, 4_000, "read_file"),
  ];

  test("ranks eligible sessions by sustained tool pressure; ties go to the larger then the smaller id", () => {
    const ranked = hardSet(sessions, { fraction: 1 });
    assert.equal(ranked[0]!.session.id, "b", "b and e tie on pressure and size: the smaller id first");
    assert.equal(ranked[1]!.session.id, "e");
    assert.deepEqual(
      ranked.slice(2).map((s) => s.session.id),
      ["d", "a", "c"],
    );
  });

  test("size wins over fraction; fraction rounds up; minToolResults filters", () => {
    assert.equal(hardSet(sessions, { size: 2 }).length, 2);
    assert.equal(hardSet(sessions).length, 1, "default fraction 0.1 of 5 rounds up to 1");
    assert.ok(!hardSet(sessions, { fraction: 1, minToolResults: 10 }).some((s) => s.session.id === "d"));
  });

  test("on the real traces the Hard Set is the most tool-heavy tenth", async () => {
    const all = (await loadAllTraces()).flatMap((t) => t.sessions);
    const chosen = hardSet(all);
    const pressure = (s: Analyzed) => toolPressure(s.session, s.index).sustained;
    const cutoff = Math.min(...chosen.map(pressure));
    assert.ok(chosen.length > 0);
    for (const s of all)
      if (!chosen.includes(s) && toolPressure(s.session, s.index).atCuts.length > 0 && s.index.objects.filter((o) => o.kind === "function").length >= 3)
        assert.ok(pressure(s) <= cutoff + 1e-12);
  });
});

describe("suite filters", () => {
  const s = build("f", 40, 4, 400, "read_file");

  test("a filter survives JSON and every given field must hold", () => {
    const filter = SuiteFilterSchema.parse(
      JSON.parse(JSON.stringify({ formats: ["tracefold_jsonl"], models: ["TEST"], tools: ["read"], minMessages: 3, maxTokens: 1_000_000 })),
    );
    assert.equal(matchesFilter(s.session, s.index, filter), true);
    assert.equal(matchesFilter(s.session, s.index, { ...filter, formats: ["claude_code_jsonl"] }), false);
    assert.equal(matchesFilter(s.session, s.index, { tools: ["exec"] }), false);
    assert.equal(matchesFilter(s.session, s.index, { tools: ["READ_FILE"] }), true, "raw names match too");
    assert.equal(matchesFilter(s.session, s.index, { minTokens: 1_000_000 }), false);
    assert.equal(matchesFilter(s.session, s.index, { maxMessages: 2 }), false);
    assert.equal(matchesFilter(s.session, s.index, { hasNativeCompaction: true }), false);
    assert.equal(matchesFilter(s.session, s.index, {}), true);
    assert.equal(SuiteFilterSchema.safeParse({ formats: ["nope"] }).success, false);
  });

  test("selectSuite: all, filter, and a Hard Set of a filtered pool", async () => {
    const all = (await loadAllTraces()).flatMap((t) => t.sessions);
    assert.equal(selectSuite(all, SuiteSpecSchema.parse({ kind: "all" })).length, all.length);
    const claude = selectSuite(all, { kind: "filter", filter: { formats: ["claude_code_jsonl"] } });
    assert.ok(claude.length > 0 && claude.every((x) => x.session.format === "claude_code_jsonl"));
    const hard = selectSuite(all, { kind: "hard", options: { size: 3 }, filter: { formats: ["claude_code_jsonl"] } });
    assert.equal(hard.length, 3);
    assert.ok(hard.every((x) => x.session.format === "claude_code_jsonl"));
  });
});
