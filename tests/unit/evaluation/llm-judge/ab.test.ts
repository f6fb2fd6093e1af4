import assert from "node:assert/strict";
import { test } from "node:test";
import { abSides, buildAbPacket, buildJudgePacket, decide, parseAbVerdict } from "../../../../lib/evaluation/llm-judge";
import { abJson, resultFor } from "./fixtures";

test("the side coin is reproducible, independent of argument order, and roughly fair", () => {
  const a = abSides(7, "s1@10", "self-gc", "oldest-turn");
  assert.deepEqual(abSides(7, "s1@10", "self-gc", "oldest-turn"), a);
  const flipped = abSides(7, "s1@10", "oldest-turn", "self-gc");
  assert.equal(flipped.A, a.A);
  assert.equal(flipped.swapped, !a.swapped);
  let selfGcFirst = 0;
  for (let i = 0; i < 1_000; i++) if (abSides(7, `s${i}@10`, "self-gc", "oldest-turn").A === "self-gc") selfGcFirst++;
  assert.ok(selfGcFirst > 440 && selfGcFirst < 560, String(selfGcFirst));
  const otherSeed = Array.from({ length: 64 }, (_, i) => abSides(8, `s${i}@10`, "self-gc", "oldest-turn").A);
  const sameSeed = Array.from({ length: 64 }, (_, i) => abSides(7, `s${i}@10`, "self-gc", "oldest-turn").A);
  assert.notDeepEqual(otherSeed, sameSeed);
  assert.throws(() => abSides(1, "k", "x", "x"), RangeError);
});

test("the A/B packet shows the future once and both candidates blind, in coin order", async () => {
  const x = await resultFor("tool-prune");
  const y = await resultFor("oldest-turn");
  const px = buildJudgePacket({ session: x.session, index: x.index, result: x.result }, { maxChars: 20_000 });
  const py = buildJudgePacket({ session: y.session, index: y.index, result: y.result }, { maxChars: 20_000 });
  const ab = buildAbPacket(px, py, { seed: 3 });
  assert.equal(ab.text.split("=== REAL FUTURE TURNS").length, 2);
  assert.ok(ab.text.indexOf("=== CANDIDATE A ===") < ab.text.indexOf("=== CANDIDATE B ==="));
  for (const id of ["tool-prune", "oldest-turn"]) assert.ok(!ab.text.includes(id), `${id} leaks into the A/B packet`);
  const shownA = ab.sides.A === "oldest-turn" ? py : px;
  const aBlock = ab.text.slice(ab.text.indexOf("=== CANDIDATE A ==="), ab.text.indexOf("=== CANDIDATE B ==="));
  assert.ok(aBlock.includes(shownA.sections.plan));
  assert.deepEqual(ab.objectIds.A, shownA.objectIds);
  assert.deepEqual(buildAbPacket(py, px, { seed: 3 }).sides.A, ab.sides.A);
});

test("candidates from different cuts or future windows are refused", async () => {
  const x = await resultFor("tool-prune");
  const y = await resultFor("oldest-turn", undefined, 7);
  const px = buildJudgePacket({ session: x.session, index: x.index, result: x.result });
  const py = buildJudgePacket({ session: y.session, index: y.index, result: y.result });
  assert.throws(() => buildAbPacket(px, py, { seed: 1 }), RangeError);
  const z = await resultFor("oldest-turn");
  const pz = buildJudgePacket({ session: z.session, index: z.index, result: z.result }, { futureRequests: 1 });
  assert.throws(() => buildAbPacket(px, pz, { seed: 1 }), RangeError);
});

test("Listing 4 answers parse strictly", () => {
  const ok = parseAbVerdict(JSON.stringify(abJson()));
  assert.ok(ok.ok && ok.value.verdict === "A_better" && ok.value.confidence === 0.8);
  const cases: [Record<string, unknown>, string][] = [
    [{ verdict: "A" }, "verdict"],
    [{ confidence: 85 }, "confidence"],
    [{ rationale: "  " }, "rationale"],
    [{ risks: "none" }, "risks"],
    [{ winner: "A" }, "winner"],
  ];
  for (const [over, path] of cases) {
    const r = parseAbVerdict(JSON.stringify(abJson(over)));
    assert.ok(!r.ok, JSON.stringify(over));
    assert.equal(r.error.code, "schema");
    assert.deepEqual(
      r.error.issues.map((i) => i.path),
      [path],
      JSON.stringify(r.error.issues),
    );
  }
  const missing = parseAbVerdict(JSON.stringify({ verdict: "tie" }));
  assert.ok(!missing.ok && missing.error.issues.length === 5);
  assert.equal((parseAbVerdict("A is better.") as { ok: false; error: { code: string } }).error.code, "no_json");
});

test("side verdicts map back to policies and to the caller's argument order", () => {
  const sides = { A: "oldest-turn", B: "self-gc", swapped: true };
  const a = decide(abJson({ verdict: "A_better" }) as never, sides);
  assert.deepEqual([a.preferred, a.winner, a.outcome], ["oldest-turn", "second", "B_better"]);
  const b = decide(abJson({ verdict: "B_better" }) as never, sides);
  assert.deepEqual([b.preferred, b.winner, b.outcome], ["self-gc", "first", "A_better"]);
  const t = decide(abJson({ verdict: "tie" }) as never, sides);
  assert.deepEqual([t.preferred, t.winner, t.outcome], ["tie", "tie", "tie"]);
  const straight = decide(abJson({ verdict: "A_better" }) as never, { A: "self-gc", B: "oldest-turn", swapped: false });
  assert.deepEqual([straight.preferred, straight.winner, straight.outcome], ["self-gc", "first", "A_better"]);
});
