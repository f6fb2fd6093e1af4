import assert from "node:assert/strict";
import fc from "fast-check";
import { test } from "node:test";
import { MAX_JSON_DEPTH, excessNestingAt } from "../../../lib/trace/json-depth";
import { FORMAT_IDS, type FormatId } from "../../../lib/trace/model";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";
import { checkParse } from "../../helpers/fuzz/check-parse";
import { FUZZ_SEED, fuzzParams } from "../../helpers/fuzz/settings";

/**
 * Deeply nested JSON is refused with a located "nested deeper than" issue in every JSON format,
 * never a "Maximum call stack size exceeded" from JSON.stringify further down (the bug the
 * fuzzer found in claude_code_jsonl, mini_swe_agent_traj and openai_chat).
 */
const JSON_FORMATS = FORMAT_IDS.filter((f) => f !== "aider_chat_md");

/** A trace of `format` whose one tool-argument-like value is `deep`. */
function traceWith(format: FormatId, deep: string): string {
  if (format.endsWith("_jsonl") && format !== "tracefold_jsonl")
    return `{"type":"user","sessionId":"s","message":{"role":"user","content":[{"type":"tool_use","id":"a","name":"b","input":${deep}}]}}\n`;
  if (format === "tracefold_jsonl") return `{"tracefold":"1","type":"session","id":"a"}\n{"type":"message","role":"user","parts":${deep}}\n`;
  return `{\n  "messages": [{"role": "user", "content": ${deep}}],\n  "traj": ${deep}\n}\n`;
}

const nested = (depth: number, open: "[" | "{") => (open === "[" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth));

for (const format of JSON_FORMATS) {
  test(`${format}: 100,000 levels of nesting are refused with a located message`, async () => {
    const result = await parseTrace(sourceFromText("deep.json", traceWith(format, nested(100_000, "["))), { format });
    const issue = result.issues.find((i) => /nested deeper than/.test(i.message));
    assert.ok(issue, `issues: ${JSON.stringify(result.issues.map((i) => i.message))}`);
    assert.equal(issue.file, "deep.json");
    assert.ok(issue.line >= 1);
    assert.ok(!result.issues.some((i) => /Maximum call stack|importer \S+ failed/.test(i.message)));
  });
}

test("nesting at the limit is accepted and one level past it is not", () => {
  assert.equal(excessNestingAt(nested(MAX_JSON_DEPTH, "[")), undefined);
  assert.equal(excessNestingAt(nested(MAX_JSON_DEPTH + 1, "{")), 5 * MAX_JSON_DEPTH);
  assert.equal(excessNestingAt(JSON.stringify({ s: "[".repeat(5000) })), undefined, "brackets inside strings do not count");
  assert.equal(excessNestingAt(JSON.stringify({ s: '\\"[[' + "[".repeat(5000) })), undefined, "escaped quotes do not end the string");
});

test(`any depth in any JSON format: a result or the nesting issue, never a crash (seed ${FUZZ_SEED})`, { timeout: 120_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...JSON_FORMATS),
      fc.integer({ min: 1, max: 150_000 }),
      fc.constantFrom<"[" | "{">("[", "{"),
      async (format, depth, open) => {
        const { result } = await checkParse("deep.json", traceWith(format, nested(depth, open)), format);
        const refused = result?.issues.some((i) => /nested deeper than/.test(i.message)) ?? false;
        // The wrappers around the nested value add at most 4 levels.
        if (depth > MAX_JSON_DEPTH && !refused) throw new Error(`depth ${depth} was not refused`);
        if (depth + 4 <= MAX_JSON_DEPTH && refused) throw new Error(`depth ${depth} was refused`);
      },
    ),
    fuzzParams(240),
  );
});
