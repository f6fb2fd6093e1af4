import assert from "node:assert/strict";
import { test } from "node:test";
import { canonicalId, extractJsonObject, parseJudgeVerdict } from "../../../../lib/evaluation/llm-judge";
import { JudgeVerdictSchema } from "../../../../lib/evaluation/judge/verdict-schema";
import { verdictJson } from "./fixtures";

const KNOWN = ["conversation:user:1", "function:web_fetch:1", "function:exec:2"];
const parse = (value: unknown, knownIds: string[] | null = KNOWN) =>
  parseJudgeVerdict(typeof value === "string" ? value : JSON.stringify(value), knownIds ? { knownIds } : {});

test("a well-formed Listing 3 answer parses into the shared verdict with noImpact = valid", () => {
  const r = parse(verdictJson());
  assert.ok(r.ok);
  assert.equal(r.value.noImpact, false);
  assert.equal(r.wrapped, false);
  assert.deepEqual(r.value.failure_culprit, { target_id: "function:web_fetch:1" });
  assert.ok(JudgeVerdictSchema.safeParse(r.value).success, "the result satisfies lib/evaluation/verdict-schema");
  const pass = parse(verdictJson({ valid: true, failure_culprit: null }));
  assert.ok(pass.ok && pass.value.noImpact === true && pass.value.failure_culprit === null);
});

test("a fenced block or one object inside prose is accepted and marked as wrapped", () => {
  const fenced = parse("```json\n" + JSON.stringify(verdictJson()) + "\n```");
  assert.ok(fenced.ok && fenced.wrapped);
  const prose = parse(`Here is my verdict: ${JSON.stringify(verdictJson())} Hope this helps.`);
  assert.ok(prose.ok && prose.wrapped);
});

test("wrapper errors: empty, no JSON, several objects, broken JSON", () => {
  const cases: [string, string][] = [
    ["   ", "empty"],
    ["The prefix looks fine to me.", "no_json"],
    [`${JSON.stringify(verdictJson())}\n${JSON.stringify(verdictJson())}`, "multiple_json"],
    ['{"valid": true, "uncertain": false,', "invalid_json"],
    ['{"valid": tru}', "invalid_json"],
  ];
  for (const [text, code] of cases) {
    const r = parse(text);
    assert.ok(!r.ok, text);
    assert.equal(r.error.code, code, text);
  }
});

test("schema errors list every problem with its path", () => {
  const r = parse({ ...verdictJson(), valid: "false", dimension_scores: { goal_retention: { score: 7, verdict: "ok" } }, summary: undefined });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "schema");
  const paths = r.error.issues.map((i) => i.path).sort();
  for (const path of [
    "valid",
    "summary",
    "dimension_scores.goal_retention.score",
    "dimension_scores.goal_retention.verdict",
    "dimension_scores.evidence_retention",
    "dimension_scores.continuation_readiness",
    "dimension_scores.compression_safety",
  ]) {
    assert.ok(paths.includes(path), `missing issue at ${path}: ${paths.join(", ")}`);
  }
  assert.match(r.error.message, /^the JSON does not match the schema: /);
});

test("unknown keys are rejected at every level, not silently dropped", () => {
  const json = verdictJson();
  (json.dimension_scores as Record<string, Record<string, unknown>>).goal_retention!.reason = "x";
  const r = parse({ ...json, dependencies: [], failure_culprit: { target_id: "function:web_fetch:1", why: "x" } });
  assert.ok(!r.ok);
  assert.deepEqual(r.error.issues.map((i) => i.path).sort(), ["dependencies", "dimension_scores.goal_retention.reason", "failure_culprit.why"]);
  const misspelt = parse({ ...verdictJson(), overal_score: 3 });
  assert.ok(!misspelt.ok && misspelt.error.issues.some((i) => i.path === "overal_score" && /unknown key/.test(i.message)));
});

test("contract rules: overall_score in 0–5, no culprit on a valid cut, culprit must be an object in the packet", () => {
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ overall_score: 80 }, "overall_score", /within 0–5/],
    [{ valid: true }, "failure_culprit", /null when valid is true/],
    [{ failure_culprit: { target_id: "function:read:99" } }, "failure_culprit.target_id", /not an object in the packet/],
    [{ failure_culprit: { target_id: "the web page" } }, "failure_culprit.target_id", /not an object id/],
  ];
  for (const [over, path, message] of cases) {
    const r = parse(verdictJson(over));
    assert.ok(!r.ok, JSON.stringify(over));
    assert.equal(r.error.code, "semantic");
    assert.ok(
      r.error.issues.some((i) => i.path === path && message.test(i.message)),
      JSON.stringify(r.error.issues),
    );
  }
});

test("short culprit ids are accepted and returned in full form; without knownIds only the shape is checked", () => {
  const r = parse(verdictJson({ failure_culprit: { target_id: "web_fetch:1" } }));
  assert.ok(r.ok);
  assert.equal(r.value.failure_culprit?.target_id, "function:web_fetch:1");
  const unchecked = parse(verdictJson({ failure_culprit: { target_id: "user:9" } }), null);
  assert.ok(unchecked.ok && unchecked.value.failure_culprit?.target_id === "conversation:user:9");
  assert.equal(canonicalId("function:read:2"), "function:read:2");
  assert.equal(canonicalId("read"), undefined);
});

test("a JSON array or scalar is a schema error, not a crash", () => {
  const r = parse("[1, 2]");
  assert.ok(!r.ok);
  assert.equal(extractJsonObject("[1, 2]").ok, false);
});
