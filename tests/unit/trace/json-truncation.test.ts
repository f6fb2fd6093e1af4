import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { lastLineOf, truncationOf } from "../../../lib/trace/json-truncation";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";
import { readManifest } from "../../helpers/traces";

/**
 * Issue 17, item 7: a JSON document cut short is reported as "the file ends early" at its last
 * line, not as the engine's last complaint ("Bad control character in string literal …").
 */
test("unclosed strings and brackets are truncations; complete or merely wrong JSON is not", () => {
  assert.deepEqual(truncationOf('{"a": [1, 2'), { open: 2, inString: false });
  assert.deepEqual(truncationOf('{"a": "hello\\nwor'), { open: 1, inString: true });
  assert.deepEqual(truncationOf('{"a": "say \\"hi\\""'), { open: 1, inString: false });
  assert.equal(truncationOf('{"a": 1}'), undefined);
  assert.equal(truncationOf('{"a": 1}}'), undefined, "an extra closing bracket is an error, not a truncation");
  assert.equal(truncationOf('{"a": tru}'), undefined);
  assert.equal(lastLineOf("a\nb\nc\n\n"), 3);
});

test("a real JSON document cut in the middle says the file ends early, at its last line", async () => {
  const entry = readManifest().find((e) => e.path.endsWith(".traj.json"))!;
  const whole = readFileSync(entry.absolutePath, "utf8");
  for (const share of [0.3, 0.5, 0.77]) {
    const cut = whole.slice(0, Math.floor(whole.length * share));
    const parsed = await parseTrace(sourceFromText("cut.traj.json", cut));
    const errors = parsed.issues.filter((i) => i.severity === "error");
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0]!.message, /^the file ends early: the JSON stops at its last line \(\d+\)/);
    assert.equal(errors[0]!.line, lastLineOf(cut));
    assert.doesNotMatch(errors[0]!.message, /position|control character/);
  }
});

test("a JSONL file whose last line is cut off says so; a bad line in the middle keeps the parser's reason", async () => {
  const entry = readManifest().find((e) => e.format === "claude_code_jsonl" && e.messages > 20)!;
  const lines = readFileSync(entry.absolutePath, "utf8").split("\n").filter(Boolean);
  const last = lines[lines.length - 1]!;
  const cut = [...lines.slice(0, -1), last.slice(0, Math.floor(last.length / 2))].join("\n") + "\n";
  const parsed = await parseTrace(sourceFromText("cut.jsonl", cut), { format: "claude_code_jsonl" });
  const errors = parsed.issues.filter((i) => i.severity === "error");
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.line, lines.length);
  assert.match(errors[0]!.message, /^the file ends early/);
  const middle = [...lines.slice(0, 3), lines[3]!.slice(0, 20), ...lines.slice(4)].join("\n");
  const bad = await parseTrace(sourceFromText("mid.jsonl", middle), { format: "claude_code_jsonl" });
  const midErrors = bad.issues.filter((i) => i.severity === "error");
  assert.ok(midErrors.some((e) => e.line === 4 && /^invalid JSON/.test(e.message)));
});
