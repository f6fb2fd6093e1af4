import assert from "node:assert/strict";
import { test } from "node:test";
import { lastNObservationsPolicy, oldEnvironmentOutput, splitlinesCount } from "../../../../../lib/compaction/policies/pruning/last-n-observations";
import type { TargetReport } from "../../../../../lib/compaction/policies/shared/target";
import { analyze, assertValidPairs, plainParts, prose, run, session, step, text, viewByOrigin } from "./fixtures";

/** Twelve tool steps in one earlier turn, then a short latest turn: observations at messages 3, 5, …, 25. */
const lines = (n: number, seed: string) =>
  Array.from({ length: n }, (_, i) => `${seed} line ${i}: ${prose(60, `${seed}${i}`).replace(/\s+/g, " ")}`).join("\n");
const steps = Array.from({ length: 12 }, (_, i) => step(`c${i + 1}`, "Bash", lines(5 + i, `o${i + 1}`))).flat();
const a = analyze(
  session([
    ["system", [text("sys")]],
    ["user", [text("Fix the build")]],
    ...steps,
    ["assistant", [text("Fixed.")]],
    ["user", [text("Thanks")]],
    ["assistant", [text("Welcome.")]],
  ]),
);
const resultText = (r: Awaited<ReturnType<typeof run>>, m: number) => {
  const part = viewByOrigin(r).get(m)!.parts[0]!;
  return part.type === "tool_result" ? part.content : "";
};

test("SWE-agent's placeholder counts lines as Python's str.splitlines does", () => {
  assert.equal(splitlinesCount(""), 0);
  assert.equal(splitlinesCount("one"), 1);
  assert.equal(splitlinesCount("a\nb\n"), 2);
  assert.equal(splitlinesCount("a\r\nb\rc"), 3);
  assert.equal(splitlinesCount("a\n\nb"), 3);
  assert.equal(splitlinesCount("a\u2028b\fc"), 3);
  assert.equal(oldEnvironmentOutput("x\ny\nz"), "Old environment output: (3 lines omitted)");
});

test("keeps the last 10 observations verbatim and replaces the older ones with their line count (n = 10 by default)", async () => {
  assert.deepEqual(
    lastNObservationsPolicy.params.map((p) => [p.name, p.default]),
    [["n", 10]],
  );
  const r = await run(lastNObservationsPolicy, a, { window: 1_000_000 });
  assert.deepEqual(
    r.actions.map((x) => [x.target, x.action, x.rule]),
    [1, 2].map((i) => [`function:exec:${i}`, "prune", "last-n-observations/old-environment-output"]),
  );
  assert.equal(resultText(r, 3), "Old environment output: (5 lines omitted)");
  assert.equal(resultText(r, 5), "Old environment output: (6 lines omitted)");
  for (let m = 7; m <= 25; m += 2) assert.deepEqual(plainParts(viewByOrigin(r).get(m)!), a.session.messages[m]!.parts, `observation at ${m} kept`);
  for (const m of [2, 4]) assert.deepEqual(plainParts(viewByOrigin(r).get(m)!), a.session.messages[m]!.parts, `call at ${m} kept`);
  assertValidPairs(r);
});

test("fires whenever an observation is older than the last n (no budget trigger)", () => {
  const ctx = { ...a, cut: a.session.messages.length, window: 1, tokenizer: undefined as never, prefixTokens: 0, summaryCap: 0 };
  assert.equal(lastNObservationsPolicy.fires!(ctx, { n: 10 }), true);
  assert.equal(lastNObservationsPolicy.fires!(ctx, { n: 12 }), false);
});

test("observations in the protected latest turn stay, and demonstrations are neither counted nor replaced", async () => {
  const demo = session([
    ["system", [text("sys")]],
    ["user", [text("Demo task")]],
    ...step("d1", "Bash", lines(9, "demo")),
    ["user", [text("Real task")]],
    ...step("r1", "Bash", lines(7, "real1")),
    ...step("r2", "Bash", lines(8, "real2")),
  ]);
  for (const m of [1, 2, 3]) demo.messages[m]!.meta = { isDemo: true };
  const b = analyze(demo);
  const r = await run(lastNObservationsPolicy, b, { window: 1_000_000, params: { n: 0 } });
  // n = 0: every observation is older than the window, but the real ones sit in the protected latest turn.
  assert.deepEqual(r.actions, []);
  assert.deepEqual(plainParts(viewByOrigin(r).get(3)!), demo.messages[3]!.parts, "the demonstration's observation is untouched");
  assert.match(r.log.join("\n"), /2 older observations sit in the protected latest turn/);
});

test("under a harness target n decreases until the view fits, oldest observations first", async () => {
  const prefix = a.index.prefixTokens.at(-1)!;
  const own = await run(lastNObservationsPolicy, a, { window: 1_000_000 });
  const target = own.tokensAfter - 200;
  const r = await run(lastNObservationsPolicy, a, { window: 1_000_000, targetTokens: target });
  const report = r.details!.target as TargetReport;
  assert.ok(r.tokensAfter <= target && report.reached, `${r.tokensAfter} ≤ ${target}`);
  const n = Number(/n = (\d+)/.exec(report.knob)![1]);
  assert.ok(n < 10 && n > 0, `n = ${n}`);
  assert.deepEqual(
    r.actions.map((x) => x.target),
    Array.from({ length: 12 - n }, (_, i) => `function:exec:${i + 1}`),
  );
  // One more observation kept would not fit: n is the largest that does.
  const looser = await run(lastNObservationsPolicy, a, { window: 1_000_000, params: { n: n + 1 } });
  assert.ok(looser.tokensAfter > target);
  // A target that replacing only the oldest observation meets keeps 11: more than n = 10.
  const oldest = own.actions[0]!;
  const wide = await run(lastNObservationsPolicy, a, { window: 1_000_000, targetTokens: prefix - (oldest.tokensBefore - oldest.tokensAfter) });
  assert.equal((wide.details!.target as TargetReport).knob, "n = 11 observations");
  assert.deepEqual(
    wide.actions.map((x) => x.target),
    ["function:exec:1"],
  );
});
