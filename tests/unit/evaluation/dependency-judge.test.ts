import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { replayCuts } from "../../../lib/evaluation/cuts/cut-protocol";
import { judgeDependencies } from "../../../lib/evaluation/judge/dependency-judge";
import { extractDependencies } from "../../../lib/evaluation/judge/dependencies";
import { dimensionScore } from "../../../lib/evaluation/judge/judge-scores";
import { JudgeOutputSchema, JudgeVerdictSchema } from "../../../lib/evaluation/judge/verdict-schema";
import { createDependencyMatcher } from "../../../lib/evaluation/judge/view-texts";
import { findPolicy } from "../../../lib/compaction/policies/registry";
import { runPolicy } from "../../../lib/compaction/policies/run-policy";
import { windowAtLevel } from "../../../lib/compaction/policies/select-cut";
import { cachedTokenizer } from "../../../lib/tokens";
import { loadEveryTrace } from "../../helpers/load-traces";
import { analyze, prose, runAt, scriptedPolicy, session, step, text, tokenizer } from "./fixtures";

const countTokens = (t: string) => tokenizer.count(t);

describe("dimension scores", () => {
  const cases: [number, number, number, string][] = [
    [0, 0, 5, "pass"],
    [10, 0, 5, "pass"],
    [10, 1, 4, "warn"],
    [100, 1, 4, "warn"],
    [3, 1, 3, "warn"],
    [2, 1, 2, "fail"],
    [1, 1, 0, "fail"],
    [4, 0.5, 4, "warn"],
  ];
  for (const [size, loss, score, verdict] of cases) {
    test(`${loss} lost of ${size} → ${score} ${verdict}`, () => assert.deepEqual(dimensionScore(size, loss), { score, verdict }));
  }
});

describe("the shared verdict schema", () => {
  const listing3 = {
    valid: true,
    uncertain: false,
    overall_score: 4.5,
    summary: "ok",
    dimension_scores: {
      goal_retention: { score: 5, verdict: "pass" },
      evidence_retention: { score: 4, verdict: "warn" },
      continuation_readiness: { score: 5, verdict: "pass" },
      compression_safety: { score: 4, verdict: "pass" },
    },
    failure_culprit: null,
  };

  test("Listing 3 as an LLM would emit it parses; the verdict adds noImpact and optional evidence", () => {
    assert.deepEqual(JudgeOutputSchema.parse(listing3), listing3);
    assert.equal(JudgeVerdictSchema.safeParse(listing3).success, false, "noImpact is required");
    assert.equal(JudgeVerdictSchema.safeParse({ ...listing3, noImpact: true }).success, true);
    assert.equal(JudgeOutputSchema.safeParse({ ...listing3, failure_culprit: { target_id: "function:read:3" } }).success, true);
    assert.equal(
      JudgeOutputSchema.safeParse({ ...listing3, dimension_scores: { ...listing3.dimension_scores, goal_retention: { score: 6, verdict: "pass" } } }).success,
      false,
    );
  });
});

describe("judgeDependencies", () => {
  const LOG_LINE = "WARN retry budget exhausted after 9 attempts at batch 208/659 for ledger rows";
  const ops = analyze(
    session([
      ["user", [text("Rerun the nightly ledger export and send me the report link.")]],
      ...step("c1", "exec", { cmd: "schedctl logs JOB-11111 --full" }, `${prose(2_000, "a")}\n${LOG_LINE}\n${prose(2_000, "b")}`),
      ...step("c2", "exec", { cmd: "schedctl rerun nightly-ledger" }, "queued JOB-22222 on pool canary\nreport: https://reports.example.com/r/abc123"),
      ["assistant", [text("Queued.")]],
      ["user", [text("Wait for it.")]],
      ...step("c3", "exec", { cmd: "schedctl wait JOB-22222" }, "done"),
      ["assistant", [text(`Finished; the log said: ${LOG_LINE}. Report: https://reports.example.com/r/abc123. Nothing else is pending on this task today.`)]],
    ]),
  );

  test("a prune that loses values: invalid, culprit named, scores below 5, schema-valid evidence", async () => {
    const result = await runAt(scriptedPolicy([{ target: "function:exec:2", action: "prune" }]), ops, 7);
    const verdict = judgeDependencies({ countTokens, session: ops.session, index: ops.index, cut: 7, result });
    JudgeVerdictSchema.parse(verdict);
    assert.equal(verdict.valid, false);
    assert.equal(verdict.noImpact, false);
    assert.equal(verdict.uncertain, false);
    assert.deepEqual(verdict.failure_culprit, { target_id: "function:exec:2" });
    assert.ok(verdict.dimension_scores.evidence_retention.score < 5);
    assert.ok(verdict.overall_score < 5);
    assert.equal(verdict.evidence!.counts.lost, verdict.evidence!.dependencies.filter((d) => d.status === "lost").length);
    assert.equal(verdict.evidence!.dependencies[0]!.status, "lost", "lost dependencies come first");
    assert.match(verdict.summary, /2 lost — live_state: "JOB-22222" \(prune of function:exec:2\)/);
  });

  test("no edits: valid, no impact, full marks, no culprit", async () => {
    const result = await runAt(findPolicy("none")!, ops, 7);
    const verdict = judgeDependencies({ countTokens, session: ops.session, index: ops.index, cut: 7, result });
    assert.equal(verdict.noImpact, true);
    assert.equal(verdict.overall_score, 5);
    assert.equal(verdict.failure_culprit, null);
  });

  test("a tiny future is uncertain", async () => {
    const tiny = analyze(session([["user", [text("Read it")]], ...step("r", "read_file", { path: "notes/todo.md" }, "ship it"), ["assistant", [text("ok")]]]));
    const verdict = judgeDependencies({ countTokens, session: tiny.session, index: tiny.index, cut: 3, result: await runAt(findPolicy("none")!, tiny, 3) });
    assert.equal(verdict.uncertain, true);
    assert.equal(verdict.noImpact, true);
  });

  test("a result for another cut is refused", async () => {
    const result = await runAt(findPolicy("none")!, ops, 7);
    assert.throws(() => judgeDependencies({ countTokens, session: ops.session, index: ops.index, cut: 5, result }), RangeError);
  });

  test("evidence is capped, counts are not", async () => {
    const result = await runAt(scriptedPolicy([{ target: "function:exec:2", action: "prune" }]), ops, 7);
    const capped = judgeDependencies({ countTokens, session: ops.session, index: ops.index, cut: 7, result, evidenceLimit: 1 });
    assert.equal(capped.evidence!.dependencies.length, 1);
    assert.equal(capped.evidence!.omitted, capped.evidence!.counts.total - 1);
    const short = judgeDependencies({ countTokens, session: ops.session, index: ops.index, cut: 7, result, maxValueChars: 12 });
    const url = short.evidence!.dependencies.find((d) => d.kind === "url")!;
    assert.equal(url.value.length, 12);
    assert.equal(url.valueLength, "https://reports.example.com/r/abc123".length);
  });
});

describe("judge on every real trace", () => {
  test("none and tool-prune at every replay cut: no errors, none has no impact, bounded time", async (t) => {
    const traces = await loadEveryTrace();
    const tokenizer = cachedTokenizer("o200k");
    const started = Date.now();
    const tally = { none: { cuts: 0, noImpact: 0, prune: 0 }, "tool-prune": { cuts: 0, noImpact: 0, prune: 0 } };
    for (const { sessions } of traces) {
      for (const { session: s, index } of sessions) {
        for (const cut of replayCuts(s, index)) {
          const dependencies = extractDependencies(s, index, cut.cut);
          const matcher = createDependencyMatcher(dependencies.dependencies);
          for (const id of ["none", "tool-prune"] as const) {
            const result = await runPolicy(findPolicy(id)!, { session: s, index, cut: cut.cut, window: windowAtLevel(cut.prefixTokens), tokenizer });
            const verdict = judgeDependencies({ countTokens, session: s, index, cut: cut.cut, result, dependencies, matcher });
            JudgeVerdictSchema.parse(verdict);
            if (id === "none") assert.ok(verdict.noImpact, `${s.id} cut ${cut.cut}: ${verdict.summary}`);
            tally[id].cuts++;
            tally[id].noImpact += verdict.noImpact ? 1 : 0;
            tally[id].prune += result.pruneRate;
          }
        }
      }
    }
    const elapsed = Date.now() - started;
    for (const [id, x] of Object.entries(tally))
      t.diagnostic(`${id}: ${x.cuts} cuts, prune ${((100 * x.prune) / x.cuts).toFixed(1)}%, no-impact ${((100 * x.noImpact) / x.cuts).toFixed(1)}%`);
    t.diagnostic(`${elapsed} ms`);
    assert.ok(tally.none.cuts > 300);
    assert.ok(tally["tool-prune"].noImpact < tally["tool-prune"].cuts, "tool-prune loses something somewhere");
    assert.ok(elapsed < 120_000, `took ${elapsed} ms`);
  });
});
