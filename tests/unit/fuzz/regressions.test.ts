import assert from "node:assert/strict";
import { test } from "node:test";
import { lineOfError } from "../../../lib/trace/json-lines";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";

/** Bugs the importer fuzzer found, each pinned by the smallest input that showed it. */

test("a document cut off at its end reports its last line, not the line after it", async () => {
  // sourceFromFile's text() ends every line with "\n"; V8 reports the error at the text's end.
  const text = '[\n  {"role": "user", "content": "hi"},\n  {"role": "user"\n';
  const result = await parseTrace(sourceFromText("cut.json", text), { format: "openai_chat" });
  assert.equal(result.issues[0]?.line, 3);
  let error: unknown;
  try {
    JSON.parse(text);
  } catch (e) {
    error = e;
  }
  assert.equal(lineOfError(text, error), 3);
  assert.equal(lineOfError("[\n1,\n", new SyntaxError("Unexpected end of JSON input at position 5")), 2);
});

test("tool arguments nested 100,000 deep are refused, not a stack overflow in JSON.stringify", async () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const line = `{"type":"assistant","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"bash","input":${deep}}]}}`;
  const result = await parseTrace(sourceFromText("s.jsonl", `{"type":"user","sessionId":"s","message":{"role":"user","content":"hi"}}\n${line}\n`), {
    format: "claude_code_jsonl",
  });
  assert.deepEqual(
    result.issues.map((i) => [i.line, /nested deeper than 512 levels/.test(i.message)]),
    [[2, true]],
  );
  assert.equal(result.sessions[0]?.messages.length, 1, "the other lines still import");
});

test("an OTel attribute holding deeply nested JSON text is refused with its span's field", async () => {
  const deep = "[".repeat(50_000) + "]".repeat(50_000);
  const span = {
    name: "chat m",
    context: { trace_id: "0x1", span_id: "0x2" },
    parent_id: null,
    start_time: "2025-01-01T00:00:00Z",
    attributes: { "gen_ai.operation.name": "chat", "gen_ai.input.messages": deep },
    events: [],
  };
  const result = await parseTrace(sourceFromText("t.json", JSON.stringify({ spans: [span] }, null, 2)), { format: "otel_genai_spans" });
  const issue = result.issues.find((i) => /nested deeper than/.test(i.message));
  assert.ok(issue, JSON.stringify(result.issues));
  assert.match(issue.field ?? "", /attributes\.gen_ai\.input\.messages$/);
  assert.ok(!result.issues.some((i) => /importer \S+ failed/.test(i.message)));
});
